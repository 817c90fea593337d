"""Running conformance vectors (format `jobmodel-conformance/1`) through the model or another engine."""
