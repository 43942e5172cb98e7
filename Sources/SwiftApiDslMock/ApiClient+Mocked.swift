import SwiftApiDsl

// In the constrained extension that holds the client's settings, so `client.` lists the verbs first.
extension RequestModifiable where Self == ApiClient {
    /// A mock of this client: it keeps every modifier, the authentication, the validators and
    /// the JSON coders, and answers requests itself instead of sending them.
    ///
    /// ```swift
    /// let mock = client.mocked()
    /// mock.resultProvider = { .response($0, body: profile) }
    /// ```
    /// The modifiers still run, so one that throws (an authentication that fetches a token, say)
    /// throws on the mock too; mock a client without it, or start from `ApiClientMock/init(baseUrl:jsonEncoder:jsonDecoder:)`.
    public func mocked() -> ApiClientMock {
        ApiClientMock(mocking: self)
    }
}
