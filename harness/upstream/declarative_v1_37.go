//go:build jobmodel_k8s_1_37

package main

import (
	"context"
	"strings"

	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
)

// declarative adds declarative validation to the strategy's errors, as the API server's
// rest.BeforeCreate/BeforeUpdate do from 1.37 on (the strategies no longer call it themselves);
// it needs the request's RequestInfo.
func declarative(ctx context.Context, c apiCase, strategy any, obj, old runtime.Object, errs field.ErrorList) field.ErrorList {
	dv, ok := strategy.(rest.DeclarativeValidationStrategy)
	if !ok {
		return errs
	}
	op, verb := operation.Create, "create"
	if old != nil {
		op, verb = operation.Update, "update"
	}
	subresource := ""
	if c.Subresource != nil {
		subresource = *c.Subresource
	}
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, APIGroup: "batch", APIVersion: "v1", Namespace: metav1NamespaceDefault,
		Resource: strings.ToLower(c.Kind) + "s", Subresource: subresource, Verb: verb,
	})
	return dv.ValidateDeclaratively(ctx, obj, old, errs, op, dv.DeclarativeValidationConfig(ctx, obj, old))
}
