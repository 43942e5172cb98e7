import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl
@testable import SwiftApiDslCache

@Suite struct URLSessionTransportTests {
    #if canImport(FoundationNetworking)
    /// libcurl's messages for a connection the server closed or reset, as corelibs reports them
    /// (`URLError(.unknown)`), become the lost connection every engine reports; others stay.
    @Test(arguments: [
        ("Send failure: Broken pipe", URLError.Code.networkConnectionLost),
        ("Send failure: Connection reset by peer", .networkConnectionLost),
        ("Recv failure: Connection reset by peer", .networkConnectionLost),
        ("transfer closed with 90 bytes remaining to read", .networkConnectionLost),
        ("Something libcurl never says", .unknown),
    ])
    func libcurlsMessagesForALostConnectionMapToIt(message: String, code: URLError.Code) throws {
        let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:1/upload")))
        let mapped = URLSessionFailure.map(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message]), for: request)
        #expect((mapped as? URLError)?.code == code)
    }
    #endif

    @Test func theSessionHasNoURLCache() {
        // Caching is the library's own HTTPCache, on every platform (nothing cached twice); on
        // Linux, corelibs also traps when a request is cancelled during its cache lookup.
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        #expect(URLSessionTransport(configuration: configuration).session.configuration.urlCache == nil)
        #expect(URLSessionTransport().session.configuration.urlCache == nil)
        // The configuration given is left as it was.
        #expect(configuration.urlCache != nil)
    }
}

/// Which session a request goes through (`URLSessionTransport.session(for:)`): one of the
/// transport's own per distinct TLS settings, so that a pinned request never rides a connection
/// that an unchecked request opened (trust and pins are checked per connection on Apple
/// platforms). On Linux the transport refuses TLS settings before sending; the choice is the
/// same plain function everywhere.
@Suite struct URLSessionChoiceTests {
    let pinned = TLSSettings(pins: ["api.example.com": ["sha256/" + Data(repeating: 1, count: 32).base64EncodedString()]])
    let otherPins = TLSSettings(pins: ["api.example.com": ["sha256/" + Data(repeating: 2, count: 32).base64EncodedString()]])

    @Test func requestsWithoutSettingsOrWithSettingsThatChangeNothingShareTheTransportsSession() {
        let transport = URLSessionTransport(configuration: .ephemeral)
        #expect(transport.chosen(nil).session === transport.session)
        #expect(transport.chosen(TLSSettings()).session === transport.session)
        #expect(transport.sessionsForSettings.count.kept == 0)
    }

    @Test func settingsGetASessionOfTheirOwnWithItsOwnDelegateAndEqualSettingsShareIt() {
        let transport = URLSessionTransport(configuration: .ephemeral)
        let first = transport.chosen(pinned)
        #expect(first.session !== transport.session)
        #expect(first.delegate !== transport.chosen(nil).delegate)
        #expect(transport.chosen(TLSSettings(pins: pinned.pins)).session === first.session)
        #expect(transport.chosen(otherPins).session !== first.session)
        #expect(transport.chosen(TLSSettings(trustsSystemRoots: false)).session !== first.session)
        #expect(transport.sessionsForSettings.count.kept == 3)
    }

    @Test func aSessionForSettingsHasTheTransportsConfigurationWithoutACache() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-Made-By": "the test"]
        let transport = URLSessionTransport(configuration: configuration)
        let made = transport.chosen(pinned).session.configuration
        #expect(made.httpAdditionalHeaders?["X-Made-By"] as? String == "the test")
        #expect(made.urlCache == nil)
    }

    @Test func theLeastRecentlyUsedSessionIsTheOneDroppedPastSixtyFour() {
        let transport = URLSessionTransport(configuration: .ephemeral)
        let settings = (0..<65).map { TLSSettings(pins: ["host\($0).example.com": ["sha256/x"]]) }
        let first = transport.chosen(settings[0]).session
        for index in 1..<64 { _ = transport.chosen(settings[index]) }
        #expect(transport.chosen(settings[0]).session === first)
        // Used in the order 1, 2…63, 0: the second is the one used longest ago when the 65th comes.
        let second = transport.chosen(settings[1]).session
        for index in 2..<64 { _ = transport.chosen(settings[index]) }
        _ = transport.chosen(settings[0])
        _ = transport.chosen(settings[64])
        #expect(transport.sessionsForSettings.count.kept == 64)
        #expect(transport.chosen(settings[0]).session === first)
        #expect(transport.chosen(settings[1]).session !== second)
    }
}

extension URLSessionTransport {
    /// The session a request with `tls` goes through, its lease given back at once (a request
    /// gives it back once its task runs).
    func chosen(_ tls: TLSSettings?) -> DelegatedSession {
        let chosen = session(for: tls)
        chosen.release()
        return chosen.value
    }
}
