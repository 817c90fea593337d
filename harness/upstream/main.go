// Command upstream-harness answers conformance requests with the real upstream Kubernetes code.
//
// It speaks the jobmodel oracle protocol (docs/oracle-protocol.md): it first writes a handshake
// line naming the protocol, itself, the Kubernetes release it was built from and its suites;
// then for each request line {"id": ..., "suite": "...", "case": {...}} on stdin it writes one
// answer line on stdout: {"id": ..., "outcome": {...}} in the shape of the case's `expect`,
// {"id": ..., "error": "message"} for a request it cannot run, or {"id": ..., "unsupported":
// "reason"} for a suite it does not implement.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	_ "time/tzdata" // as kube-apiserver and kube-controller-manager: CronJob time zones without system zoneinfo

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

// protocolVersion is the oracle protocol this program speaks.
const protocolVersion = "jobmodel-oracle/1"

// kubernetesModule is the module whose release the handshake reports.
const kubernetesModule = "k8s.io/kubernetes"

// handshake is the first line of output.
type handshake struct {
	Protocol          string   `json:"protocol"`
	Implementation    string   `json:"implementation"`
	KubernetesVersion string   `json:"kubernetesVersion"`
	Suites            []string `json:"suites"`
}

// request is one line of input.
type request struct {
	ID    json.RawMessage `json:"id"`
	Suite string          `json:"suite"`
	Case  json.RawMessage `json:"case"`
}

// response is one line of output: the request's id and exactly one of the other fields.
type response struct {
	ID          json.RawMessage `json:"id"`
	Outcome     any             `json:"outcome,omitempty"` // an empty outcome is still written: only nil is left out
	Error       string          `json:"error,omitempty"`
	Unsupported string          `json:"unsupported,omitempty"`
}

// handlers maps a suite name to the function answering its cases.
var handlers = map[string]func(ctx context.Context, raw json.RawMessage) (map[string]any, error){
	"job-sync":     runJobSync,
	"validation":   runValidation,
	"defaulting":   runDefaulting,
	"schedule":     runSchedule,
	"cronjob-sync": runCronJobSync,
}

// kubernetesVersion is the release of k8s.io/kubernetes this binary was built from, as its build
// information records it: the version go.mod requires (a replacement by a local directory, as
// build.py makes, has no version of its own).
func kubernetesVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, dep := range info.Deps {
		if dep.Path == kubernetesModule {
			if dep.Replace != nil && dep.Replace.Version != "" && dep.Replace.Version != "(devel)" {
				return dep.Replace.Version
			}
			return dep.Version
		}
	}
	return "unknown"
}

func suites() []string {
	out := make([]string, 0, len(handlers))
	for name := range handlers {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func main() {
	// The controllers log at Info level; the protocol owns stdout and stderr stays quiet.
	klog.SetLogger(logr.Discard())
	ctx := klog.NewContext(context.Background(), logr.Discard())
	if err := initFeatureGates(); err != nil {
		fmt.Fprintln(os.Stderr, "upstream-harness:", err)
		os.Exit(2)
	}
	if len(os.Args) == 2 && os.Args[1] == "--resolve-features" {
		runResolveFeatures()
		return
	}
	if len(os.Args) == 2 && os.Args[1] == "--pod-events" {
		runPodEvents(ctx)
		return
	}
	if len(os.Args) == 2 && os.Args[1] == "--manifests" {
		runManifests()
		return
	}
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(handshake{protocolVersion, "upstream-harness", kubernetesVersion(), suites()})
	_ = out.Flush()
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			_ = enc.Encode(serve(ctx, line))
			_ = out.Flush()
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "upstream-harness: reading stdin:", err)
			os.Exit(2)
		}
	}
}

// serve answers one request line; a panic in upstream code becomes an error response.
func serve(ctx context.Context, line []byte) (resp response) {
	var req request
	defer func() {
		if r := recover(); r != nil {
			resp = response{ID: req.ID, Error: fmt.Sprintf("panic in upstream code: %v\n%s", r, debug.Stack())}
		}
	}()
	if err := json.Unmarshal(line, &req); err != nil {
		return response{ID: json.RawMessage("null"), Error: "request: not JSON: " + err.Error()}
	}
	if len(req.ID) == 0 {
		req.ID = json.RawMessage("null")
	}
	handler, ok := handlers[req.Suite]
	if !ok {
		return response{ID: req.ID, Unsupported: fmt.Sprintf("suite %q is not answered by the upstream harness", req.Suite)}
	}
	outcome, err := handler(ctx, req.Case)
	if err != nil {
		return response{ID: req.ID, Error: err.Error()}
	}
	if outcome == nil {
		outcome = map[string]any{}
	}
	return response{ID: req.ID, Outcome: outcome}
}

// asAPIServer runs one step of an API-server request as kube-apiserver does: a panic is
// recovered (the handler chain's panic recovery) and the request fails with 500 Internal Server
// Error. It returns the panic's description, or "" when the step returned.
func asAPIServer(step func()) (panicked string) {
	defer func() {
		if r := recover(); r != nil {
			panicked = fmt.Sprintf("panic in upstream code: %v (the API server answers 500 Internal Server Error)", r)
		}
	}()
	step()
	return ""
}
