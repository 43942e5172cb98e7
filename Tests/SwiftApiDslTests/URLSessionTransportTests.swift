import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

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
