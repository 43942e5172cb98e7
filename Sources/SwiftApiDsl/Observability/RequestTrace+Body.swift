import Foundation

extension RequestTrace {
    /// `body` as the caller of `stream()` reads it, telling observers the bytes read and, once,
    /// how it ended: at its end, failed, or released before its end.
    func observing(_ body: ResponseBody) -> ResponseBody {
        var received: Int64 = 0
        return BodyTap(body, onChunk: { received += Int64($0.count) }, onEnd: { [self] end in
            bodyReceived(count: received)
            switch end {
            case .finished: finished(error: nil)
            case .failed(let error): finished(error: error.asRequestError)
            case .released: finished(error: RequestError.fatal(.unexpected(CancellationError())))
            }
        }).body
    }
}
