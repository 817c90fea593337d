// Command gosort prints the order Go's sort.Sort and sort.Slice leave a slice of integer keys in.
//
// Input: JSON lines {"keys": [ints...]} on stdin. Output: one JSON line per input,
// {"go": version, "sort": [...], "slice": [...]}, each the original positions of the keys in
// the sorted order, so ties show which equal key ended where. Each line is flushed at once so
// a test can keep one process open and talk to it line by line.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sort"
)

type input struct {
	Keys []int `json:"keys"`
}

type output struct {
	Go    string `json:"go"`
	Sort  []int  `json:"sort"`
	Slice []int  `json:"slice"`
}

// byKey is a sort.Interface whose Less compares keys only; pos rides along with each key.
type byKey struct {
	keys []int
	pos  []int
}

func (s byKey) Len() int           { return len(s.keys) }
func (s byKey) Less(i, j int) bool { return s.keys[i] < s.keys[j] }
func (s byKey) Swap(i, j int) {
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
	s.pos[i], s.pos[j] = s.pos[j], s.pos[i]
}

type item struct {
	key, pos int
}

func positions(n int) []int {
	pos := make([]int, n)
	for i := range pos {
		pos[i] = i
	}
	return pos
}

func withSort(keys []int) []int {
	s := byKey{keys: append([]int(nil), keys...), pos: positions(len(keys))}
	sort.Sort(s)
	return s.pos
}

func withSlice(keys []int) []int {
	items := make([]item, len(keys))
	for i, k := range keys {
		items[i] = item{key: k, pos: i}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].key < items[j].key })
	pos := make([]int, len(items))
	for i, it := range items {
		pos[i] = it.pos
	}
	return pos
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	for in.Scan() {
		var req input
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintf(os.Stderr, "gosort: bad input line: %v\n", err)
			os.Exit(2)
		}
		if req.Keys == nil {
			req.Keys = []int{}
		}
		res := output{Go: runtime.Version(), Sort: withSort(req.Keys), Slice: withSlice(req.Keys)}
		if err := enc.Encode(res); err != nil {
			fmt.Fprintf(os.Stderr, "gosort: %v\n", err)
			os.Exit(2)
		}
		if err := out.Flush(); err != nil {
			fmt.Fprintf(os.Stderr, "gosort: %v\n", err)
			os.Exit(2)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "gosort: %v\n", err)
		os.Exit(2)
	}
}
