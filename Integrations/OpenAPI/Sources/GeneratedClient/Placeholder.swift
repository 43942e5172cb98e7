// Replaced by the generated client (Scripts/openapi-generate).
