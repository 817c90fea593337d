//go:build tools

// The upstream main packages built by build.py: importing their app packages keeps every module
// they need in go.mod and go.sum (`go mod tidy` considers all build tags).
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver/app"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager/app"
)
