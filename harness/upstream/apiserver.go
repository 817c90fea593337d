package main

import (
	"context"
	"encoding/json"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	batch "k8s.io/kubernetes/pkg/apis/batch"
	_ "k8s.io/kubernetes/pkg/apis/batch/install" // batch/v1 conversions and defaulters
	_ "k8s.io/kubernetes/pkg/apis/core/install"  // core/v1 ones used by the pod template
	cronjobregistry "k8s.io/kubernetes/pkg/registry/batch/cronjob"
	jobregistry "k8s.io/kubernetes/pkg/registry/batch/job"
	kjson "sigs.k8s.io/json"
)

// apiCase is the input part of a validation or defaulting case.
type apiCase struct {
	Kind        string          `json:"kind"`
	Operation   string          `json:"operation"`
	Subresource *string         `json:"subresource"`
	Features    json.RawMessage `json:"features"`
	Object      json.RawMessage `json:"object"`
	OldObject   json.RawMessage `json:"oldObject"`
}

// kindStrategies are the registry strategies of a kind: the main resource and /status.
type kindStrategies struct {
	main   rest.RESTUpdateStrategy
	status rest.RESTUpdateStrategy
	create rest.RESTCreateStrategy
}

func strategiesFor(kind string) (kindStrategies, error) {
	switch kind {
	case "Job":
		return kindStrategies{jobregistry.Strategy, jobregistry.StatusStrategy, jobregistry.Strategy}, nil
	case "CronJob":
		return kindStrategies{cronjobregistry.Strategy, cronjobregistry.StatusStrategy, cronjobregistry.Strategy}, nil
	}
	return kindStrategies{}, fmt.Errorf("kind: expected Job or CronJob, got %q", kind)
}

// decodeObject reads a batch/v1 object from JSON, applies decode defaults when asked, and
// converts it to the internal version the strategies and validation work on.
func decodeObject(kind, field string, raw json.RawMessage, withDefaults bool) (runtime.Object, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, fmt.Errorf("%s: required", field)
	}
	var external, internal runtime.Object
	switch kind {
	case "Job":
		external, internal = &batchv1.Job{}, &batch.Job{}
	case "CronJob":
		external, internal = &batchv1.CronJob{}, &batch.CronJob{}
	default:
		return nil, fmt.Errorf("kind: expected Job or CronJob, got %q", kind)
	}
	// As the API server decodes a request with fieldValidation=Strict (kubectl's default): a
	// field the release's types lack is refused, not dropped.
	strictErrs, err := kjson.UnmarshalStrict(raw, external)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", field, err)
	}
	if len(strictErrs) != 0 {
		return nil, fmt.Errorf("%s: %v", field, runtime.NewStrictDecodingError(strictErrs))
	}
	if withDefaults {
		legacyscheme.Scheme.Default(external)
	}
	if err := legacyscheme.Scheme.Convert(external, internal, nil); err != nil {
		return nil, fmt.Errorf("%s: converting to the internal version: %v", field, err)
	}
	return internal, nil
}

// encodeObject converts an internal object back to batch/v1 wire JSON.
func encodeObject(kind string, internal runtime.Object) (any, error) {
	var external runtime.Object
	switch kind {
	case "Job":
		external = &batchv1.Job{}
	default:
		external = &batchv1.CronJob{}
	}
	if err := legacyscheme.Scheme.Convert(internal, external, nil); err != nil {
		return nil, fmt.Errorf("converting to batch/v1: %v", err)
	}
	return wire(external)
}

func apiContext(ctx context.Context) context.Context {
	return genericapirequest.WithNamespace(ctx, metav1NamespaceDefault)
}

const metav1NamespaceDefault = "default"

// openAPICase reads a validation or defaulting case: its gates set, its kind's strategies, and its
// object decoded (with the scheme's defaults when withDefaults).
func openAPICase(raw json.RawMessage, withDefaults bool) (apiCase, kindStrategies, runtime.Object, error) {
	var c apiCase
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, kindStrategies{}, nil, fmt.Errorf("case: %v", err)
	}
	if err := applyCaseFeatures(c.Features); err != nil {
		return c, kindStrategies{}, nil, err
	}
	s, err := strategiesFor(c.Kind)
	if err != nil {
		return c, s, nil, err
	}
	obj, err := decodeObject(c.Kind, "object", c.Object, withDefaults)
	return c, s, obj, err
}

// runValidation answers a validation case with the registry strategy's Validate, ValidateUpdate
// or the status strategy's ValidateUpdate, on the objects exactly as given.
func runValidation(ctx context.Context, raw json.RawMessage) (map[string]any, error) {
	c, s, obj, err := openAPICase(raw, false)
	if err != nil {
		return nil, err
	}
	ctx = apiContext(ctx)
	var validate func() field.ErrorList
	// The strategy's warnings, which the API server sends only for a write that passed validation
	// (rest.BeforeCreate, rest.BeforeUpdate).
	var warn func() []string
	switch c.Operation {
	case "create":
		validate = func() field.ErrorList { return declarative(ctx, c, s.create, obj, nil, s.create.Validate(ctx, obj)) }
		warn = func() []string { return s.create.WarningsOnCreate(ctx, obj) }
	case "update":
		old, err := decodeObject(c.Kind, "oldObject", c.OldObject, false)
		if err != nil {
			return nil, err
		}
		switch {
		case c.Subresource == nil:
			validate = func() field.ErrorList {
				return declarative(ctx, c, s.main, obj, old, s.main.ValidateUpdate(ctx, obj, old))
			}
			warn = func() []string { return s.main.WarningsOnUpdate(ctx, obj, old) }
		case *c.Subresource == "status":
			validate = func() field.ErrorList {
				return declarative(ctx, c, s.status, obj, old, s.status.ValidateUpdate(ctx, obj, old))
			}
			warn = func() []string { return s.status.WarningsOnUpdate(ctx, obj, old) }
		default:
			return nil, fmt.Errorf("subresource: expected absent or \"status\", got %q", *c.Subresource)
		}
	default:
		return nil, fmt.Errorf("operation: expected create or update, got %q", c.Operation)
	}
	var errs field.ErrorList
	if panicked := asAPIServer(func() { errs = validate() }); panicked != "" {
		// The write is refused with a server error, not with field errors.
		return map[string]any{"valid": false, "errors": []any{}, "serverError": panicked}, nil
	}
	out := make([]any, 0, len(errs))
	for _, e := range errs {
		out = append(out, map[string]any{
			"field":   e.Field,
			"type":    string(e.Type),
			"detail":  e.Detail,
			"message": e.Error(),
		})
	}
	warnings := []string{}
	if len(errs) == 0 {
		if panicked := asAPIServer(func() { warnings = append(warnings, warn()...) }); panicked != "" {
			return map[string]any{"valid": false, "errors": []any{}, "serverError": panicked}, nil
		}
	}
	return map[string]any{"valid": len(errs) == 0, "errors": out, "warnings": warnings}, nil
}

// runDefaulting answers a defaulting case: decode defaults, then the strategy's
// PrepareForCreate (or PrepareForUpdate against the defaulted oldObject, as read from storage).
func runDefaulting(ctx context.Context, raw json.RawMessage) (map[string]any, error) {
	c, s, obj, err := openAPICase(raw, true)
	if err != nil {
		return nil, err
	}
	ctx = apiContext(ctx)
	prepare := func() { s.create.PrepareForCreate(ctx, obj) }
	if len(c.OldObject) != 0 && string(c.OldObject) != "null" {
		old, err := decodeObject(c.Kind, "oldObject", c.OldObject, true)
		if err != nil {
			return nil, err
		}
		prepare = func() { s.main.PrepareForUpdate(ctx, obj, old) }
	}
	if panicked := asAPIServer(prepare); panicked != "" {
		return map[string]any{"serverError": panicked}, nil
	}
	result, err := encodeObject(c.Kind, obj)
	if err != nil {
		return nil, err
	}
	return map[string]any{"object": result}, nil
}
