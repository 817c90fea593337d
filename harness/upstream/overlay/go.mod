// Sources that join upstream packages at build time (go build -overlay); not a package of
// the harness module, hence a module of their own that nothing builds directly.
module jobmodel.local/harness/upstream/overlay

go 1.23.0
