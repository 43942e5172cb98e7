#if AsyncHTTPClient
import Foundation
import NIOSSL
import SwiftApiDsl

extension TLSSettings {
    /// The `TLSConfiguration` that enforces these settings on AsyncHTTPClient, for a request to
    /// `host`: the authorities as trust roots (with the system's, or instead of them), the
    /// identity as certificate chain and key. Pins are checked by `PinnedClients`. The transport
    /// keeps what this makes per settings (reading a PKCS #12 archive costs more than a request).
    func tlsConfiguration(for host: String) throws -> TLSConfiguration {
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
        return configuration
    }
}
#endif
