//go:build tools

// Package tools pins the newest Pulumi CLI for the version matrix of the end-to-end tests.
//
// It is never compiled (note the build tag); it only makes `go mod tidy`
// keep github.com/pulumi/pulumi/pkg/v3 and its dependencies, with their
// checksums, in go.mod / go.sum. scripts/ensure-pulumi --newest builds the binary:
//
//	go build -trimpath -o ../../.pulumi-cli-newest/bin/pulumi \
//	  -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=vX.Y.Z" \
//	  github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
//
// The Node.js language host (module
// github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) is not
// imported: the module proxy this was set up against served no version of it.
// If it becomes available, add
//
//	_ "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"
//
// below and run `go mod tidy`; scripts/ensure-pulumi then builds it as well.
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
)
