/// Every harness, by the name `Scripts/fuzz` gives it: the name of its file in Fuzz/Harnesses
/// and of its seed corpus in Fuzz/Corpus.
let harnesses: [String: Harness] = [
    "CertificatePins": certificatePinsHarness,
    "ContentType": contentTypeHarness,
    "HeaderFields": headerFieldsHarness,
    "LinkHeader": linkHeaderHarness,
    "Multipart": multipartHarness,
    "PathPattern": pathPatternHarness,
    "PercentEncoding": percentEncodingHarness,
    "ProblemDetails": problemDetailsHarness,
    "RetryAfter": retryAfterHarness,
    "ServerSentEvents": serverSentEventsHarness,
    "URLResolution": urlResolutionHarness,
]
