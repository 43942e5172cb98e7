import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The client's settings and the calls that return a reconfigured copy. They are declared in a
// protocol extension constrained to `ApiClient` rather than on the type: editors rank a type's
// own members first, and these should come after the verbs that start a request (`client.`
// then lists `get`, `post`… before `modifier`, `validator`, `authentication`, `transport`).

extension RequestModifiable where Self == ApiClient {
    /// The URL that request paths are resolved against; its path and query are kept.
    public var baseUrl: URL { self.storedBaseUrl }
    /// Encodes `body:` values and JSON bodies, unless a request brings its own encoder.
    public var jsonEncoder: JSONEncoder { self.storedJsonEncoder }
    /// Decodes response bodies and error bodies (a `JSONDecoder` unless the client was made with
    /// another ``ResponseDecoder``), unless `perform(jsonDecoder:)` is given another decoder.
    public var jsonDecoder: any ResponseDecoder { self.storedJsonDecoder }
    /// The engine that sends requests.
    public var transport: any HTTPTransport { self.storedTransport }

    /// Returns a copy with `modifier` appended to the client's modifiers.
    public func modifier(_ modifier: RequestModifier) -> ApiClient {
        self.with { $0.modifiers.append(modifier) }
    }

    /// Returns a copy with another base URL, keeping modifiers, authentication and validators:
    /// for an API that lives on several servers.
    ///
    /// ```swift
    /// let uploads = client.baseUrl(URL(string: "https://upload.my-domain.com/v1")!)
    /// ```
    /// Authentication follows the base URL: it is added to requests whose origin is the new one.
    public func baseUrl(_ baseUrl: URL) -> ApiClient {
        self.with { $0.storedBaseUrl = baseUrl }
    }

    /// Returns a copy that sends through `transport`, keeping everything else.
    public func transport(_ transport: any HTTPTransport) -> ApiClient {
        self.with { $0.storedTransport = transport }
    }
}

extension ResponseValidatable where Self == ApiClient {
    /// Returns a copy with `validator` appended to the client's validators.
    public func validator(_ validator: ResponseValidator) -> ApiClient {
        self.with { $0.validators.append(replacingSameId: validator) }
    }

    /// Returns a copy whose validators (the client's and every call's) run only while `isOn`
    /// returns `true`, asked at each request. `SwiftApiDslMock` uses it to keep validators off on
    /// a mock unless told otherwise (`mock.appliesValidators`).
    ///
    /// ```swift
    /// let client = base.validators(enabledWhen: { Settings.strictValidation })
    /// ```
    public func validators(enabledWhen isOn: @escaping @Sendable () -> Bool) -> ApiClient {
        self.with { $0.validatorsEnabled = isOn }
    }
}
