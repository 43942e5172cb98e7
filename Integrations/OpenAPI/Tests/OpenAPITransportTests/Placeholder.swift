// Replaced by the transport tests.
