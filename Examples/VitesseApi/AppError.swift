import Foundation
import SwiftApiDsl

// Seed 001's own error enum, kept as the app shows it, and the one translation that every call
// of `Candidates.client` now throws instead of a `RequestError`.

extension Candidates {
    /// The errors the Vitesse app shows, from seed 001.
    public enum Error: Swift.Error, LocalizedError, Hashable, Sendable {
        case malformed, badRequest, unauthorized, notFound, responseError
        case internalServerError
        case custom(reason: String)

        public var errorDescription: String? {
            switch self {
            case .malformed: "The server's answer could not be read."
            case .badRequest: "The request could not be made."
            case .unauthorized: "Please sign in again."
            case .notFound: "Not found."
            case .responseError: "The server could not be reached."
            case .internalServerError: "Something went wrong on the server."
            case .custom(let reason): reason
            }
        }

        /// The app's name for a failed call; a cancellation stays a cancellation.
        static func translate(_ error: RequestError) -> Swift.Error {
            if error.isCancellation { return error }
            if let document = error.validationError as? VitesseError { return Error.custom(reason: document.reason) }
            switch error {
            case .modify: return Error.badRequest
            case .fatal(.decoding): return Error.malformed
            case .transport: return Error.responseError
            default: break
            }
            switch error.statusCode {
            case 401?: return Error.unauthorized
            case 404?: return Error.notFound
            default: return Error.internalServerError
            }
        }
    }
}
