#if AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOSSL
import SwiftApiDsl

extension TLSSettings {
    /// The settings last turned into a configuration: reading a PKCS #12 archive for every
    /// request would cost more than the request. Equal configurations share AsyncHTTPClient's
    /// TLS context and connections; a request with other settings gets connections of its own.
    private static let lastMade = NIOLockedValueBox<(settings: TLSSettings, configuration: TLSConfiguration)?>(nil)

    /// The `TLSConfiguration` that enforces these settings on AsyncHTTPClient, for a request to
    /// `url`: the authorities as trust roots (with the system's, or instead of them), the
    /// identity as certificate chain and key. Pins are checked by `PinnedClients`.
    func tlsConfiguration(for url: URL) throws -> TLSConfiguration {
        let host = url.host ?? "the request"
        if let made = Self.lastMade.withLockedValue({ $0 }), made.settings == self { return made.configuration }
        var configuration = TLSConfiguration.makeClientConfiguration()
        do {
            let authorities = try certificateAuthorities.flatMap { data -> [NIOSSLCertificate] in
                let bytes = [UInt8](data)
                if String(decoding: bytes.prefix(100), as: UTF8.self).contains("-----BEGIN") {
                    return try NIOSSLCertificate.fromPEMBytes(bytes)
                }
                return [try NIOSSLCertificate(bytes: bytes, format: .der)]
            }
            if !trustsSystemRoots {
                configuration.trustRoots = .certificates(authorities)
            } else if !authorities.isEmpty {
                configuration.additionalTrustRoots = [.certificates(authorities)]
            }
            if let identity = clientIdentity {
                let bundle = try NIOSSLPKCS12Bundle(buffer: [UInt8](identity), passphrase: Array(clientIdentityPassword.utf8))
                configuration.certificateChain = bundle.certificateChain.map { .certificate($0) }
                configuration.privateKey = .privateKey(bundle.privateKey)
            }
        } catch {
            throw ApiClientError(.tlsUnsupported, message: "the TLS settings for \(host) cannot be read (a certificate or "
                                 + "PKCS #12 archive that does not parse, or a wrong password); nothing was sent", underlyingError: error)
        }
        Self.lastMade.withLockedValue { $0 = (self, configuration) }
        return configuration
    }
}
#endif
