// Replaced by the wire tests.
