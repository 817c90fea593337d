package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// manifestAnswer is the answer to one manifest: the JSON text of each document kubectl reads
// from it, or the error that stops the reading.
type manifestAnswer struct {
	Documents []string `json:"documents"`
	Error     string   `json:"error,omitempty"`
}

// manifestDocuments reads a manifest as kubectl's resource builder does (StreamVisitor.Visit):
// NewYAMLOrJSONDecoder into runtime.RawExtension, white space trimmed, an empty or null
// document left out.
func manifestDocuments(text string) (answer manifestAnswer) {
	defer func() {
		if r := recover(); r != nil {
			answer = manifestAnswer{Error: fmt.Sprintf("panic in upstream code: %v", r)}
		}
	}()
	decoder := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(text), 4096)
	documents := []string{}
	for {
		ext := runtime.RawExtension{}
		if err := decoder.Decode(&ext); err != nil {
			if err == io.EOF {
				return manifestAnswer{Documents: documents}
			}
			return manifestAnswer{Error: err.Error()}
		}
		raw := bytes.TrimSpace(ext.Raw)
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		documents = append(documents, string(raw))
	}
}

// runManifests answers `upstream-harness --manifests`: for each input line {"text": "..."}, one
// output line with manifestDocuments' answer.
func runManifests() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var req struct {
				Text string `json:"text"`
			}
			if jerr := json.Unmarshal(line, &req); jerr != nil {
				_ = enc.Encode(manifestAnswer{Error: "request: not JSON: " + jerr.Error()})
			} else {
				_ = enc.Encode(manifestDocuments(req.Text))
			}
			_ = out.Flush()
		}
		if err != nil {
			return
		}
	}
}
