"""Small utilities at the bottom of the layers, with no Kubernetes vocabulary: Go's sort, partial JSON comparison."""
