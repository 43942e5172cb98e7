import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl
import Testing

/// Pins, host patterns and certificates as the engines hand them over, without a server.
@Suite struct TLSSettingsTests {
    /// A self-signed P-256 certificate for pin.example, made once with openssl.
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBgjCCASegAwIBAgIUBbGoP5+dSBxbhEidnqdHqEHrzFwwCgYIKoZIzj0EAwIw
        FjEUMBIGA1UEAwwLcGluLmV4YW1wbGUwHhcNMjYxMTI3MTYxMjM1WhcNMzYxMTI0
        MTYxMjM1WjAWMRQwEgYDVQQDDAtwaW4uZXhhbXBsZTBZMBMGByqGSM49AgEGCCqG
        SM49AwEHA0IABMqKmpRHgmStqj/Jl44OdLugkAfFRIMKsh+nxB7F8wcmyjDAhk9j
        9cF5HoljcQ/bWhynTgxn10kcgaDCyCbG5r+jUzBRMB0GA1UdDgQWBBT6k74mOhBo
        v6Si6elWiwHwlYl7UTAfBgNVHSMEGDAWgBT6k74mOhBov6Si6elWiwHwlYl7UTAP
        BgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQC59bFjnh+qZgsophEN
        Dhytfw9VJAt8vqhhQmALtYWtbQIhANBp/e6jBDDrszEgx4ttlx+oAQ1Cyokr8IaR
        8xzhJUCD
        -----END CERTIFICATE-----
        """
    /// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`
    static let pin = "1XyOMtWIA2ix3IjertCx9RXxi3vZt3HvZZoSyPrRrNA="
    /// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | base64`
    static let spki = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEyoqalEeCZK2qP8mXjg50u6CQB8VEgwqyH6fEHsXzBybKMMCGT2P1wXkeiWNxD9taHKdODGfXSRyBoMLIJsbmvw=="

    static var der: Data { TLSSettings(certificateAuthorities: [Data(certificatePEM.utf8)]).derCertificateAuthorities[0] }

    @Test func thePEMOfAnAuthorityBecomesItsDERAndDERStaysAsItIs() throws {
        let settings = TLSSettings(certificateAuthorities: [Data((Self.certificatePEM + "\n" + Self.certificatePEM).utf8), Self.der])
        #expect(settings.derCertificateAuthorities == [Self.der, Self.der, Self.der])
        #expect(Self.der.count == 390)
    }

    @Test func theSubjectPublicKeyInfoIsReadFromTheCertificate() {
        #expect(TLSSettings.subjectPublicKeyInfo(ofCertificate: Self.der)?.base64EncodedString() == Self.spki)
        #expect(TLSSettings.subjectPublicKeyInfo(ofCertificate: Data([0x30, 0x03, 0x02, 0x01])) == nil)
        #expect(TLSSettings.subjectPublicKeyInfo(ofCertificate: Self.der.prefix(200)) == nil)
    }

    @Test func aChainPassesWhenOneOfItsCertificatesMatchesOneOfTheHostsPins() throws {
        let rotating = TLSSettings(pins: ["pin.example": ["sha256/old-key-that-is-gone=", "sha256/" + Self.pin]])
        try rotating.checkPins(host: "pin.example", chain: [Data([1, 2, 3]), Self.der])
        try TLSSettings(pins: ["PIN.example": [Self.pin]]).checkPins(host: "pin.EXAMPLE", chain: [Self.der])
    }

    @Test func aChainThatMatchesNoPinFailsNamingTheHostThePinsExpectedAndThePinsPresented() {
        let settings = TLSSettings(pins: ["pin.example": ["sha256/b-key=", "a-key="]],
                                   clientIdentity: Data([1]), clientIdentityPassword: "hunter2")
        #expect {
            try settings.checkPins(host: "pin.example", chain: [Self.der, Data([1, 2, 3]), Self.der])
        } throws: { error in
            let error = error as? ApiClientError
            return error?.code == .pinMismatch
                && error?.message == "the certificates of pin.example match none of its pins: sha256/a-key=, sha256/b-key=; "
                + "the chain presented: sha256/\(Self.pin), (not a certificate), sha256/\(Self.pin)"
        }
        #expect {
            try settings.checkPins(host: "pin.example", chain: [])
        } throws: { error in
            (error as? ApiClientError)?.message == "the certificates of pin.example match none of its pins: sha256/a-key=, sha256/b-key=; "
                + "the chain presented: no certificate"
        }
        #expect(RequestError.transport(URLRequest(url: URL(string: "https://pin.example")!),
                                       ApiClientError(.pinMismatch, message: "")).isTrustFailure)
        #expect(!RequestError.transport(URLRequest(url: URL(string: "https://pin.example")!), URLError(.timedOut)).isTrustFailure)
    }

    @Test func aHostWithoutPinsIsNotChecked() throws {
        let settings = TLSSettings(pins: ["pin.example": ["sha256/other="]])
        try settings.checkPins(host: "elsewhere.example", chain: [])
    }

    @Test func aWildcardPatternMatchesOneLabelMoreAndAnExactOneWins() {
        let settings = TLSSettings(pins: ["*.example.com": ["wild"], "api.example.com": ["exact"]])
        #expect(settings.pins(for: "api.example.com") == ["exact"])
        #expect(settings.pins(for: "cdn.example.com") == ["wild"])
        #expect(settings.pins(for: "a.cdn.example.com") == nil)
        #expect(settings.pins(for: "example.com") == nil)
        #expect(settings.pins(for: "badexample.com") == nil)
    }

    @Test func noDescriptionShowsTheIdentitysPassword() {
        let settings = TLSSettings(certificateAuthorities: [Data([1])], trustsSystemRoots: false, pins: ["b.example": [], "a.example": []],
                                   clientIdentity: Data(count: 7), clientIdentityPassword: "hunter2")
        #expect(settings.description == "TLSSettings(certificateAuthorities: 1, trustsSystemRoots: false, "
            + #"pins: ["a.example", "b.example"], clientIdentity: PKCS #12, 7 bytes)"#)
        var dumped = ""
        dump(settings, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        #expect(!String(reflecting: settings).contains("hunter2"))
        var request = TransportRequest(url: URL(string: "https://pin.example")!)
        request.tls = settings
        var dumpedRequest = ""
        dump(request, to: &dumpedRequest)
        #expect(!dumpedRequest.contains("hunter2"))
        #expect(!String(describing: request).contains("hunter2"))
    }

    @Test func theSettingRidesOnEveryRequestAndARequestsPinsReplaceItsClientsForTheSamePattern() async throws {
        let recorder = RecordingTransport()
        let client = ApiClient(transport: recorder, baseUrl: URL(string: "https://pin.example")!)
            .tls(TLSSettings(pins: ["pin.example": ["client"]]))
        _ = try await client.get("a").perform()
        _ = try await client.get("b").modifier(.tls(TLSSettings(pins: ["pin.example": ["request"]]))).perform()
        #expect(recorder.requests.map { $0.tls?.pins["pin.example"] } == [["client"], ["request"]])
    }

    @Test func eachRedirectHopCarriesTheSettingsToBeCheckedAgainstItsOwnHost() async throws {
        let recorder = RecordingTransport { request in
            request.url?.host == "pin.example" ? (Data(), 302, ["Location": "https://other.example/b"]) : (Data(), 200, [:])
        }
        let settings = TLSSettings(pins: ["pin.example": ["p"]])
        _ = try await ApiClient(transport: recorder, baseUrl: URL(string: "https://pin.example")!).tls(settings).get("a").perform()
        #expect(recorder.requests.map { $0.url?.host } == ["pin.example", "other.example"])
        #expect(recorder.requests.map(\.tls) == [settings, settings])
    }

    @Test func twoTLSCallsOnAClientCombineAnAuthorityAndAClientIdentity() async throws {
        let recorder = RecordingTransport()
        let client = ApiClient(transport: recorder, baseUrl: URL(string: "https://pin.example")!)
            .tls(TLSSettings(certificateAuthorities: [Self.der]))
            .tls(TLSSettings(clientIdentity: Data([7]), clientIdentityPassword: "pw"))
        _ = try await client.get("a").perform()
        #expect(recorder.requests.map(\.tls)
            == [TLSSettings(certificateAuthorities: [Self.der], clientIdentity: Data([7]), clientIdentityPassword: "pw")])
    }

    @Test func aRequestsSettingsCombineWithItsClients() async throws {
        let recorder = RecordingTransport()
        let client = ApiClient(transport: recorder, baseUrl: URL(string: "https://pin.example")!)
            .tls(TLSSettings(certificateAuthorities: [Data([1])], pins: ["a.example": ["a"]]))
        let stricter = TLSSettings(certificateAuthorities: [Data([2])], trustsSystemRoots: false, pins: ["b.example": ["b"]])
        _ = try await client.get("a").tls(stricter).perform()
        _ = try await client.get("b").perform()
        #expect(recorder.requests.map(\.tls) == [
            TLSSettings(certificateAuthorities: [Data([1]), Data([2])], trustsSystemRoots: false,
                        pins: ["a.example": ["a"], "b.example": ["b"]]),
            TLSSettings(certificateAuthorities: [Data([1])], pins: ["a.example": ["a"]]),
        ])
    }

    @Test func authoritiesAddUpEachOnce() {
        let merged = TLSSettings(certificateAuthorities: [Data([1]), Data([2])])
            .merging(TLSSettings(certificateAuthorities: [Data([2]), Data([3]), Data([3])]))
        #expect(merged.certificateAuthorities == [Data([1]), Data([2]), Data([3])])
    }

    @Test func aLaterCallsPinsReplaceAnEarlierCallsForTheSamePatternOnly() {
        let earlier = TLSSettings(pins: ["API.example.com": ["old-1", "old-2"], "*.cdn.example.com": ["cdn"]])
        let merged = earlier.merging(TLSSettings(pins: ["api.example.com": ["new"], "other.example": ["other"]]))
        #expect(merged.pins == ["api.example.com": ["new"], "*.cdn.example.com": ["cdn"], "other.example": ["other"]])
        #expect(merged.pins(for: "API.EXAMPLE.COM") == ["new"])
        #expect(earlier.merging(TLSSettings()).pins == earlier.pins)
    }

    @Test func aLaterClientIdentityReplacesTheEarlierOneWithItsPassword() {
        let earlier = TLSSettings(clientIdentity: Data([1]), clientIdentityPassword: "one")
        let replaced = earlier.merging(TLSSettings(clientIdentity: Data([2]), clientIdentityPassword: "two"))
        #expect(replaced.clientIdentity == Data([2]) && replaced.clientIdentityPassword == "two")
        let kept = earlier.merging(TLSSettings(clientIdentityPassword: "stray"))
        #expect(kept.clientIdentity == Data([1]) && kept.clientIdentityPassword == "one")
        let passwordless = earlier.merging(TLSSettings(clientIdentity: Data([3])))
        #expect(passwordless.clientIdentity == Data([3]) && passwordless.clientIdentityPassword == "")
    }

    @Test func trustingOnlyTheGivenAuthoritiesWinsWhicheverCallSaysIt() {
        let system = TLSSettings(), only = TLSSettings(trustsSystemRoots: false)
        #expect([system.merging(system), system.merging(only), only.merging(system), only.merging(only)].map(\.trustsSystemRoots)
            == [true, false, false, false])
    }

    @Test func aTLSFailureOfTheEngineIsDescribedAsTLS() {
        let request = URLRequest(url: URL(string: "https://pin.example/a")!)
        let codes: [URLError.Code] = [.secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
                                      .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
                                      .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection]
        #expect(codes.map { RequestError.transport(request, URLError($0)).localizedDescription } == [
            "URLError -1200 (TLS: secure connection failed)",
            "URLError -1201 (TLS: server certificate has bad date)",
            "URLError -1202 (TLS: server certificate untrusted)",
            "URLError -1203 (TLS: server certificate has unknown root)",
            "URLError -1204 (TLS: server certificate not yet valid)",
            "URLError -1205 (TLS: client certificate rejected)",
            "URLError -1206 (TLS: client certificate required)",
            "URLError -1022 (TLS: app transport security requires a secure connection)",
        ].map { "RequestError.transport: GET https://pin.example/a failed: " + $0 })
    }
}
