import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// URLSession over real TLS on loopback. On Linux it cannot enforce `TLSSettings`, so it refuses
/// them before anything is sent; AsyncHTTPClient's package tests what is enforced.
@Suite struct URLSessionTLSWireTests {
    func client() throws -> ApiClient { ApiClient(transport: URLSessionTransport(), baseUrl: try TLSServer.url()) }

    #if canImport(FoundationNetworking)
    @Test(arguments: ["authority", "pins", "identity", "no system roots"])
    func linuxRefusesEverySettingAsTransportBeforeSendingAByte(setting: String) async throws {
        let settings = switch setting {
        case "authority": TLSSettings(certificateAuthorities: [try TLSServer.authority()])
        case "pins": TLSSettings(pins: ["127.0.0.1": ["sha256/" + (try TLSServer.value("TLS_SERVER_PIN"))]])
        case "identity": TLSSettings(clientIdentity: Data("not read: refused first".utf8), clientIdentityPassword: "secret")
        default: TLSSettings(trustsSystemRoots: false)
        }
        let mark = TLSServer.uniqueMark()
        await #expect {
            try await client().tls(settings).get("doc.json").queryItem(name: "test", mark).perform()
        } throws: { error in
            guard case .transport(let request, let underlying as ApiClientError)? = error as? RequestError else { return false }
            return underlying.code == .tlsUnsupported && request.url?.query == "test=\(mark)"
                && underlying.message == "URLSession on Linux cannot enforce the TLS settings (private authorities, pins, "
                    + "a client identity) for 127.0.0.1; nothing was sent: use the AsyncHTTPClient transport (the TLS and pinning article)"
        }
        #expect(try !TLSServer.reached(mark))
    }

    @Test func defaultSettingsAreNothingToEnforceAndThePrivateAuthorityIsThenUnknown() async throws {
        await #expect {
            try await client().tls(TLSSettings()).get("doc.json").perform()
        } throws: { error in
            (error as? RequestError)?.isTrustFailure == true
        }
    }
    #endif

    @Test func aServerOfAnUnknownAuthorityIsATrustFailure() async throws {
        let mark = TLSServer.uniqueMark()
        await #expect {
            try await client().get("doc.json").queryItem(name: "test", mark).perform()
        } throws: { error in
            (error as? RequestError)?.isTrustFailure == true
        }
        #expect(try !TLSServer.reached(mark))
    }

    @Test(arguments: ["TLS_EXPIRED_URL", "TLS_WRONG_HOST_URL"])
    func expiredAndWrongHostCertificatesAreTrustFailures(server: String) async throws {
        await #expect {
            try await ApiClient(transport: URLSessionTransport(), baseUrl: TLSServer.url(server)).get("doc.json").perform()
        } throws: { error in
            (error as? RequestError)?.isTrustFailure == true
        }
    }
}
