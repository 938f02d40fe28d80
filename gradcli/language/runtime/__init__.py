"""The runtime: values, frames, calls, signatures, attributes and exceptions."""
