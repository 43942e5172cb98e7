// Replaced by ApiClientTransport.
