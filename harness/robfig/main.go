// Command robfig answers cron queries with github.com/robfig/cron/v3 v3.0.1, the library the
// Kubernetes CronJob controller uses, for jobmodel's differential test.
//
// Each input line is a JSON object {"spec": string, "unix": int, "loc": string, "steps": int};
// the answer is one JSON line: {"error": string} when ParseStandard rejects (or panics on) the
// spec, otherwise {"next": [...]} with `steps` successive Next results as Unix seconds (a zero
// Go time is reported as null). `loc` is the location of the starting time ("" = UTC).
// Run it with ZONEINFO pointing at the same IANA data as the Python side and TZ=UTC.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/robfig/cron/v3"
)

type query struct {
	Spec  string `json:"spec"`
	Unix  int64  `json:"unix"`
	Loc   string `json:"loc"`
	Steps int    `json:"steps"`
}

type answer struct {
	Error *string  `json:"error,omitempty"`
	Next  []*int64 `json:"next,omitempty"`
}

func parse(spec string) (sched cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return cron.ParseStandard(spec)
}

func answerOne(q query) answer {
	sched, err := parse(q.Spec)
	if err != nil {
		msg := err.Error()
		return answer{Error: &msg}
	}
	loc, err := time.LoadLocation(q.Loc)
	if err != nil {
		msg := "harness: " + err.Error()
		return answer{Error: &msg}
	}
	t := time.Unix(q.Unix, 0).In(loc)
	steps := q.Steps
	if steps < 1 {
		steps = 1
	}
	out := make([]*int64, 0, steps)
	for i := 0; i < steps; i++ {
		t = sched.Next(t)
		if t.IsZero() {
			out = append(out, nil)
			break
		}
		u := t.Unix()
		out = append(out, &u)
	}
	return answer{Next: out}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for in.Scan() {
		var q query
		if err := json.Unmarshal(in.Bytes(), &q); err != nil {
			msg := "harness: bad query: " + err.Error()
			_ = enc.Encode(answer{Error: &msg})
		} else {
			_ = enc.Encode(answerOne(q))
		}
		out.Flush()
	}
}
