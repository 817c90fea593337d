// Command upstream-harness answers conformance requests with the real upstream Kubernetes code.
//
// It reads JSON lines {"suite": "...", "case": {...}} on stdin and writes one JSON line per
// request on stdout: {"outcome": {...}} in the shape of the case's `expect`, or
// {"error": "message"} for a request it cannot run. See docs/differential-testing.md.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	_ "time/tzdata" // as kube-apiserver and kube-controller-manager: CronJob time zones without system zoneinfo

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

// request is one line of input.
type request struct {
	Suite string          `json:"suite"`
	Case  json.RawMessage `json:"case"`
}

// response is one line of output: exactly one of the two fields is set.
type response struct {
	Outcome map[string]any `json:"outcome,omitempty"`
	Error   string         `json:"error,omitempty"`
}

// handlers maps a suite name to the function answering its cases.
var handlers = map[string]func(ctx context.Context, raw json.RawMessage) (map[string]any, error){
	"job-sync":     runJobSync,
	"validation":   runValidation,
	"defaulting":   runDefaulting,
	"schedule":     runSchedule,
	"cronjob-sync": runCronJobSync,
}

func main() {
	// The controllers log at Info level; the protocol owns stdout and stderr stays quiet.
	klog.SetLogger(logr.Discard())
	ctx := klog.NewContext(context.Background(), logr.Discard())
	if err := initFeatureGates(); err != nil {
		fmt.Fprintln(os.Stderr, "upstream-harness:", err)
		os.Exit(2)
	}
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
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
	defer func() {
		if r := recover(); r != nil {
			resp = response{Error: fmt.Sprintf("panic in upstream code: %v\n%s", r, debug.Stack())}
		}
	}()
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return response{Error: "request: not JSON: " + err.Error()}
	}
	handler, ok := handlers[req.Suite]
	if !ok {
		return response{Error: fmt.Sprintf("suite %q is not supported by the upstream harness", req.Suite)}
	}
	outcome, err := handler(ctx, req.Case)
	if err != nil {
		return response{Error: err.Error()}
	}
	if outcome == nil {
		outcome = map[string]any{}
	}
	return response{Outcome: outcome}
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
