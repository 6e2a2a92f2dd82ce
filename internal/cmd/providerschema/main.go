// Command providerschema writes the provider's schema, actions included, in
// the JSON format of `terraform providers schema -json`, by asking the
// provider server itself. tfplugindocs reads it through --providers-schema,
// so docs can be generated with any Terraform (1.11 cannot print actions).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tenant-iac/terraform-provider-tenant/internal/provider"
)

func main() {
	address := flag.String("address", "registry.terraform.io/tenant-iac/tenant",
		"key of the provider in provider_schemas (tfplugindocs looks up the short name, \"tenant\")")
	flag.Parse()
	if err := run(*address); err != nil {
		fmt.Fprintln(os.Stderr, "providerschema:", err)
		os.Exit(1)
	}
}

func run(address string) error {
	// The server Terraform talks to: its schema is the one users see.
	srv := provider.NewServer("docs")()
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return err
	}
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return fmt.Errorf("%s: %s", d.Summary, d.Detail)
		}
	}
	ps := map[string]any{"provider": schema(resp.Provider)}
	for key, kinds := range map[string]map[string]*tfprotov6.Schema{
		"resource_schemas":           resp.ResourceSchemas,
		"data_source_schemas":        resp.DataSourceSchemas,
		"list_resource_schemas":      resp.ListResourceSchemas,
		"ephemeral_resource_schemas": resp.EphemeralResourceSchemas,
	} {
		m := map[string]any{}
		for name, s := range kinds {
			m[name] = schema(s)
		}
		ps[key] = m
	}
	actions := map[string]any{}
	for name, a := range resp.ActionSchemas {
		actions[name] = map[string]any{"block": block(a.Schema.Block)}
	}
	ps["action_schemas"] = actions
	ids, err := srv.GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		return err
	}
	identities := map[string]any{}
	for name, s := range ids.IdentitySchemas {
		attrs := map[string]any{}
		for _, a := range s.IdentityAttributes {
			attr := map[string]any{"type": typeJSON(a.Type)}
			if a.Description != "" {
				attr["description"] = a.Description
			}
			if a.RequiredForImport {
				attr["required_for_import"] = true
			}
			if a.OptionalForImport {
				attr["optional_for_import"] = true
			}
			attrs[a.Name] = attr
		}
		identities[name] = map[string]any{"version": s.Version, "attributes": attrs}
	}
	ps["resource_identity_schemas"] = identities
	out := map[string]any{"format_version": "1.0", "provider_schemas": map[string]any{address: ps}}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func schema(s *tfprotov6.Schema) map[string]any {
	return map[string]any{"version": s.Version, "block": block(s.Block)}
}

func block(b *tfprotov6.SchemaBlock) map[string]any {
	out := map[string]any{"description_kind": kind(b.DescriptionKind)}
	if b.Description != "" {
		out["description"] = b.Description
	}
	if len(b.Attributes) > 0 {
		attrs := map[string]any{}
		for _, a := range b.Attributes {
			attrs[a.Name] = attribute(a)
		}
		out["attributes"] = attrs
	}
	if len(b.BlockTypes) > 0 {
		blocks := map[string]any{}
		for _, nb := range b.BlockTypes {
			blocks[nb.TypeName] = map[string]any{"nesting_mode": nesting(nb.Nesting), "block": block(nb.Block), "min_items": nb.MinItems, "max_items": nb.MaxItems}
		}
		out["block_types"] = blocks
	}
	return out
}

func attribute(a *tfprotov6.SchemaAttribute) map[string]any {
	out := map[string]any{"description_kind": kind(a.DescriptionKind)}
	if a.Description != "" {
		out["description"] = a.Description
	}
	if a.Type != nil {
		out["type"] = typeJSON(a.Type)
	}
	if a.NestedType != nil {
		attrs := map[string]any{}
		for _, na := range a.NestedType.Attributes {
			attrs[na.Name] = attribute(na)
		}
		out["nested_type"] = map[string]any{"attributes": attrs, "nesting_mode": objectNesting(a.NestedType.Nesting)}
	}
	for k, v := range map[string]bool{"required": a.Required, "optional": a.Optional, "computed": a.Computed, "sensitive": a.Sensitive, "deprecated": a.Deprecated} {
		if v {
			out[k] = true
		}
	}
	return out
}

func kind(k tfprotov6.StringKind) string {
	if k == tfprotov6.StringKindMarkdown {
		return "markdown"
	}
	return "plain"
}

func nesting(n tfprotov6.SchemaNestedBlockNestingMode) string {
	switch n {
	case tfprotov6.SchemaNestedBlockNestingModeSingle:
		return "single"
	case tfprotov6.SchemaNestedBlockNestingModeList:
		return "list"
	case tfprotov6.SchemaNestedBlockNestingModeSet:
		return "set"
	case tfprotov6.SchemaNestedBlockNestingModeMap:
		return "map"
	case tfprotov6.SchemaNestedBlockNestingModeGroup:
		return "group"
	}
	return "invalid"
}

func objectNesting(n tfprotov6.SchemaObjectNestingMode) string {
	switch n {
	case tfprotov6.SchemaObjectNestingModeSingle:
		return "single"
	case tfprotov6.SchemaObjectNestingModeList:
		return "list"
	case tfprotov6.SchemaObjectNestingModeSet:
		return "set"
	case tfprotov6.SchemaObjectNestingModeMap:
		return "map"
	}
	return "invalid"
}

// typeJSON encodes a type the way `terraform providers schema -json` does:
// "string", ["list", "string"], ["object", {"a": "bool"}], ...
func typeJSON(t tftypes.Type) any {
	switch {
	case t.Is(tftypes.String):
		return "string"
	case t.Is(tftypes.Number):
		return "number"
	case t.Is(tftypes.Bool):
		return "bool"
	case t.Is(tftypes.DynamicPseudoType):
		return "dynamic"
	}
	switch v := t.(type) {
	case tftypes.List:
		return []any{"list", typeJSON(v.ElementType)}
	case tftypes.Set:
		return []any{"set", typeJSON(v.ElementType)}
	case tftypes.Map:
		return []any{"map", typeJSON(v.ElementType)}
	case tftypes.Object:
		attrs := map[string]any{}
		for k, at := range v.AttributeTypes {
			attrs[k] = typeJSON(at)
		}
		return []any{"object", attrs}
	case tftypes.Tuple:
		elems := make([]any, len(v.ElementTypes))
		for i, et := range v.ElementTypes {
			elems[i] = typeJSON(et)
		}
		return []any{"tuple", elems}
	}
	panic(fmt.Sprintf("providerschema: unsupported type %s", t))
}
