package framework

import (
	"fmt"
	"slices"
	"strings"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// LookupKey is an attribute a data source finds its object by: Optional and
// Computed in the data source, with its own description and validators.
type LookupKey struct {
	Description string
	Validators  []validator.String
}

// DataSourceFrom derives a data source's schema from its resource's, so a
// field added to the resource reaches the data source too: the same
// attributes with the same types and sensitivity, described by the first
// sentence of the resource's description (what the value is; the rest
// says how a configuration changes it), all Computed, but the look-up keys. Write-only attributes (the tenant never
// returns them) and the resource's own switches named in Omit are left out.
type DataSourceFrom struct {
	Description string
	Keys        map[string]LookupKey
	Omit        []string
}

// Schema is the data source schema of r. It panics on an attribute type it
// does not know, which the family's schema test meets first.
func (d DataSourceFrom) Schema(r rschema.Schema) dschema.Schema {
	attrs := make(map[string]dschema.Attribute, len(r.Attributes))
	for name, a := range r.Attributes {
		if a.IsWriteOnly() || slices.Contains(d.Omit, name) {
			continue
		}
		if key, ok := d.Keys[name]; ok {
			s, isString := a.(rschema.StringAttribute)
			if !isString {
				panic(fmt.Sprintf("look-up key %q is a %T, not a string", name, a))
			}
			attrs[name] = dschema.StringAttribute{
				MarkdownDescription: key.Description,
				Optional:            true,
				Computed:            true,
				Sensitive:           s.Sensitive,
				CustomType:          s.CustomType,
				Validators:          key.Validators,
			}
			continue
		}
		attrs[name] = computed(a)
	}
	for name := range d.Keys {
		if _, ok := attrs[name]; !ok {
			panic(fmt.Sprintf("look-up key %q is not an attribute of the resource", name))
		}
	}
	return dschema.Schema{MarkdownDescription: d.Description, Attributes: attrs}
}

// computed is a's data source form: read-only, without the resource's
// validators, plan modifiers and defaults.
func computed(a rschema.Attribute) dschema.Attribute {
	switch a := a.(type) {
	case rschema.StringAttribute:
		return dschema.StringAttribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive, CustomType: a.CustomType}
	case rschema.BoolAttribute:
		return dschema.BoolAttribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive, CustomType: a.CustomType}
	case rschema.Int64Attribute:
		return dschema.Int64Attribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive, CustomType: a.CustomType}
	case rschema.Int32Attribute:
		return dschema.Int32Attribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive, CustomType: a.CustomType}
	case rschema.Float64Attribute:
		return dschema.Float64Attribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive, CustomType: a.CustomType}
	case rschema.NumberAttribute:
		return dschema.NumberAttribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive, CustomType: a.CustomType}
	case rschema.ListAttribute:
		return dschema.ListAttribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive,
			CustomType: a.CustomType, ElementType: a.ElementType}
	case rschema.SetAttribute:
		return dschema.SetAttribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive,
			CustomType: a.CustomType, ElementType: a.ElementType}
	case rschema.MapAttribute:
		return dschema.MapAttribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive,
			CustomType: a.CustomType, ElementType: a.ElementType}
	case rschema.ObjectAttribute:
		return dschema.ObjectAttribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive,
			CustomType: a.CustomType, AttributeTypes: a.AttributeTypes}
	case rschema.SingleNestedAttribute:
		return dschema.SingleNestedAttribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive,
			CustomType: a.CustomType, Attributes: computedAll(a.Attributes)}
	case rschema.ListNestedAttribute:
		return dschema.ListNestedAttribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive,
			CustomType: a.CustomType, NestedObject: dschema.NestedAttributeObject{Attributes: computedAll(a.NestedObject.Attributes)}}
	case rschema.SetNestedAttribute:
		return dschema.SetNestedAttribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive,
			CustomType: a.CustomType, NestedObject: dschema.NestedAttributeObject{Attributes: computedAll(a.NestedObject.Attributes)}}
	case rschema.MapNestedAttribute:
		return dschema.MapNestedAttribute{MarkdownDescription: firstSentence(a.GetMarkdownDescription()), Computed: true, Sensitive: a.Sensitive,
			CustomType: a.CustomType, NestedObject: dschema.NestedAttributeObject{Attributes: computedAll(a.NestedObject.Attributes)}}
	}
	panic(fmt.Sprintf("no data source form for a %T", a))
}

func computedAll(attrs map[string]rschema.Attribute) map[string]dschema.Attribute {
	out := make(map[string]dschema.Attribute, len(attrs))
	for name, a := range attrs {
		if !a.IsWriteOnly() {
			out[name] = computed(a)
		}
	}
	return out
}

// firstSentence is the first sentence of a description: up to the first
// period that ends a word other than an abbreviation and is followed by a
// space.
func firstSentence(s string) string {
	for i := 0; i < len(s)-1; i++ {
		if s[i] != '.' || s[i+1] != ' ' {
			continue
		}
		word := s[strings.LastIndexAny(s[:i], " (`")+1 : i]
		if word == "e.g" || word == "i.e" || word == "etc" {
			continue
		}
		return s[:i+1]
	}
	return s
}
