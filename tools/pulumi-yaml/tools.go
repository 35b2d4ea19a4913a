//go:build tools

// Package tools pins the Pulumi YAML language host (pulumi-language-yaml), which runs the YAML
// programs of examples/yaml in the end-to-end tests. Like tools/pulumi-cli it is never compiled (note
// the build tag); it keeps github.com/pulumi/pulumi-yaml and its checksums in go.mod / go.sum, and
// scripts/ensure-pulumi builds the binary next to the CLI:
//
//	go build -trimpath -o ../../.pulumi-cli/bin/pulumi-language-yaml \
//	  github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
package tools

import (
	_ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
)
