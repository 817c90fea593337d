// etcd's own server main (go.etcd.io/etcd/v3's main.go), built from the server module: `go
// install go.etcd.io/etcd/v3` fails on the replace directives of etcd's root module.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
