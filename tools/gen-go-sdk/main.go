// Command gen-go-sdk writes the Go SDK of a Pulumi package schema with Pulumi's own Go code generator
// (github.com/pulumi/pulumi/pkg/v3/codegen/go, the generator behind `pulumi package gen-sdk --language go`).
// `pulumi package gen-sdk` asks the Go language host to generate, and that host is not available here;
// the generator it would call is a Go package, pinned in go.mod at the CLI's release (tools/pulumi-cli).
//
//	gen-go-sdk <schema.json> <out-dir>
//
// <out-dir> becomes the root of a Go module whose path is the schema's language.go.importBasePath: the
// generated package with its go.mod, which requires the github.com/pulumi/pulumi/sdk/v3 this tool is
// built against (the version the generated code was written for).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"golang.org/x/mod/modfile"
)

const pulumiSDK = "github.com/pulumi/pulumi/sdk/v3"

// goDirective is what Pulumi's generator writes into the go.mod of a package it lays out as a module
// (GeneratePackage with supportPack); github.com/pulumi/pulumi/sdk/v3's own go directive raises it
// further for the programs that use the SDK.
const goDirective = "1.25"

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen-go-sdk <schema.json> <out-dir>")
		os.Exit(2)
	}
	if err := generate(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "gen-go-sdk: %v\n", err)
		os.Exit(1)
	}
}

func generate(schemaFile, outDir string) error {
	raw, err := os.ReadFile(schemaFile)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaFile, err)
	}
	var goInfo gogen.GoPackageInfo
	if err := json.Unmarshal(spec.Language["go"], &goInfo); err != nil || goInfo.ImportBasePath == "" {
		return fmt.Errorf("%s has no language.go.importBasePath: it names the Go module to write", schemaFile)
	}
	pkg, diags, err := schema.BindSpec(spec, selfContained{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s: %s", schemaFile, diags.Error())
	}
	files, err := gogen.GeneratePackage("gen-go-sdk", pkg, nil)
	if err != nil {
		return err
	}
	sdkVersion, err := builtAgainst(pulumiSDK)
	if err != nil {
		return err
	}
	goMod, err := moduleFile(goInfo.ImportBasePath, sdkVersion)
	if err != nil {
		return err
	}

	// The generator roots every file but .gitattributes (which marks the tree as generated) at the
	// package's directory, the last element of the import path; that directory is the module root here.
	prefix := path.Base(goInfo.ImportBasePath) + "/"
	if err := os.RemoveAll(outDir); err != nil {
		return err
	}
	out := map[string][]byte{"go.mod": goMod}
	for name, content := range files {
		rel, ok := strings.CutPrefix(name, prefix)
		if name == ".gitattributes" {
			rel, ok = name, true
		}
		if !ok {
			return fmt.Errorf("the generator wrote %s, outside the package directory %s", name, prefix)
		}
		out[rel] = content
	}
	for rel, content := range out {
		file := filepath.Join(outDir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// builtAgainst is the version of module dep that this binary was built with.
func builtAgainst(dep string) (string, error) {
	info, ok := debug.ReadBuildInfo()
	if ok {
		for _, m := range info.Deps {
			if m.Path == dep {
				return m.Version, nil
			}
		}
	}
	return "", fmt.Errorf("cannot tell which %s this binary was built with", dep)
}

func moduleFile(modulePath, sdkVersion string) ([]byte, error) {
	var f modfile.File
	if err := f.AddModuleStmt(modulePath); err != nil {
		return nil, err
	}
	if err := f.AddGoStmt(goDirective); err != nil {
		return nil, err
	}
	if err := f.AddRequire(pulumiSDK, sdkVersion); err != nil {
		return nil, err
	}
	return f.Format()
}

// selfContained loads no other package: the schema refers to none, and one that did would need the
// other package's plugin, which this tool does not run.
type selfContained struct{}

func (selfContained) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q: only a self-contained schema can be generated", name)
}

func (l selfContained) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}
