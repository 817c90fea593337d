package main

// --pod-events: the Job controller's pod event handlers (addPod, updatePod, deletePod)
// and its Job delete handler (deleteJob) run on requests read one JSON line at a time from
// stdin, one answer line each on stdout. Not a suite of the oracle protocol: jobmodel's own
// differential test of the handlers (tests/differential/test_pod_events.py) speaks it.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/controller/job"
)

type podEventRequest struct {
	JobKey     string          `json:"jobKey"`
	Jobs       []*batch.Job    `json:"jobs"`
	Old        *v1.Pod         `json:"old"`
	New        *v1.Pod         `json:"new"`
	DeletedJob *batch.Job      `json:"deletedJob"`
	Controller caseBookkeeping `json:"controller"`
}

type podEventAnswer struct {
	Controller map[string]any `json:"controller"` // null with an error
	Error      string         `json:"error,omitempty"`
}

func answerPodEvent(ctx context.Context, line []byte) (ans podEventAnswer) {
	defer func() {
		if r := recover(); r != nil {
			ans = podEventAnswer{Error: fmt.Sprintf("panic in upstream code: %v\n%s", r, debug.Stack())}
		}
	}()
	var req podEventRequest
	if err := json.Unmarshal(line, &req); err != nil {
		return podEventAnswer{Error: "request: " + err.Error()}
	}
	held, err := req.Controller.harness()
	if err != nil {
		return podEventAnswer{Error: "request: " + err.Error()}
	}
	in := job.HarnessPodEventInput{Key: req.JobKey, Jobs: req.Jobs, Old: req.Old, New: req.New, DeletedJob: req.DeletedJob, Bookkeeping: held}
	left, err := job.HarnessPodEvent(ctx, in)
	if err != nil {
		return podEventAnswer{Error: err.Error()}
	}
	return podEventAnswer{Controller: bookkeepingJSON(*left)}
}

func podEventsMain(ctx context.Context, in io.Reader, out io.Writer) error {
	reader := bufio.NewReader(in)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := reader.ReadBytes('\n')
		if len(line) > 0 {
			if encErr := enc.Encode(answerPodEvent(ctx, line)); encErr != nil {
				return encErr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// runPodEvents is main's entry for --pod-events.
func runPodEvents(ctx context.Context) {
	if err := podEventsMain(ctx, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "upstream-harness:", err)
		os.Exit(2)
	}
}
