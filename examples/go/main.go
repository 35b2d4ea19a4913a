// Command adplatform-go is a Go program of the adplatform provider: a bid strategy, a campaign group and
// the platform's country list, run by the Automation API as an inline program, which needs no Go
// language host (pulumi-language-go). The stack and the account come from the environment:
//
//	PULUMI_BACKEND_URL=file://$HOME/.pulumi-state PULUMI_CONFIG_PASSPHRASE=... \
//	ADPLATFORM_BASE_URL=https://api.example.com ADPLATFORM_TOKEN=... go run . up
//
// `up` prints the stack's outputs as JSON; `preview` fails when the stack would change; `destroy`
// deletes what `up` made. The provider plugin comes from a release (README, "Install"): `pulumi plugin
// install resource adplatform <version> -f <archive>`, or the engine's own download.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/adplatform/pulumi-adplatform/sdks/go/adplatform"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func program(ctx *pulumi.Context) error {
	strategy, err := adplatform.NewBidStrategy(ctx, "night-bids", &adplatform.BidStrategyArgs{
		Name:     pulumi.String("Night bids"),
		Strategy: pulumi.String("percent_add"),
		Value:    pulumi.Float64(12.5),
		MaxValue: pulumi.Float64(3),
	})
	if err != nil {
		return err
	}
	group, err := adplatform.NewCampaignGroup(ctx, "spring-sale", &adplatform.CampaignGroupArgs{
		Name:  pulumi.String("Spring sale"),
		Color: pulumi.String("#22aa44"),
		Items: pulumi.StringArray{pulumi.String("5101"), pulumi.String("5102")},
	})
	if err != nil {
		return err
	}
	countries, err := adplatform.GetCountries(ctx, &adplatform.GetCountriesArgs{})
	if err != nil {
		return err
	}
	ctx.Export("strategyId", strategy.ID())
	ctx.Export("groupId", group.ID())
	ctx.Export("countryCount", pulumi.Int(countries.Total))
	return nil
}

func run(ctx context.Context, action string) error {
	baseURL, token := os.Getenv("ADPLATFORM_BASE_URL"), os.Getenv("ADPLATFORM_TOKEN")
	if baseURL == "" || token == "" {
		return fmt.Errorf("set ADPLATFORM_BASE_URL and ADPLATFORM_TOKEN to the platform account to use")
	}
	stackName := os.Getenv("STACK")
	if stackName == "" {
		stackName = "dev"
	}
	stack, err := auto.UpsertStackInlineSource(ctx, stackName, "adplatform-go", program)
	if err != nil {
		return err
	}
	if err := stack.SetConfig(ctx, "adplatform:baseUrl", auto.ConfigValue{Value: baseURL}); err != nil {
		return err
	}
	if err := stack.SetConfig(ctx, "adplatform:token", auto.ConfigValue{Value: token, Secret: true}); err != nil {
		return err
	}

	switch action {
	case "up":
		result, err := stack.Up(ctx, optup.ProgressStreams(os.Stderr))
		if err != nil {
			return err
		}
		outputs := map[string]any{}
		for name, output := range result.Outputs {
			outputs[name] = output.Value
		}
		return json.NewEncoder(os.Stdout).Encode(outputs)
	case "preview":
		_, err := stack.Preview(ctx, optpreview.ExpectNoChanges(), optpreview.ProgressStreams(os.Stderr))
		return err
	case "destroy":
		_, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stderr))
		return err
	}
	return fmt.Errorf("unknown action %q: use up, preview or destroy", action)
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: adplatform-go up|preview|destroy")
		os.Exit(2)
	}
	if err := run(context.Background(), os.Args[1]); err != nil {
		fmt.Fprintf(os.Stderr, "adplatform-go: %v\n", err)
		os.Exit(1)
	}
}
