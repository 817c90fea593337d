//go:build !jobmodel_k8s_1_37

package main

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// declarative returns the strategy's errors: before 1.37 the batch strategies run whatever
// declarative validation they have themselves (in shadow mode).
func declarative(_ context.Context, _ apiCase, _ any, _, _ runtime.Object, errs field.ErrorList) field.ErrorList {
	return errs
}
