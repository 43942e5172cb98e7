#if ServerObservability && AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A local OTLP/HTTP receiver on loopback: it keeps the body of every export it is sent (OTLP's
/// JSON encoding) by path (`/v1/traces`, `/v1/metrics`) and answers each with an empty success.
final class OTLPReceiver: Sendable {
    private let channel: any Channel
    private let received: NIOLockedValueBox<[(path: String, body: Data)]>

    /// The receiver's root, `http://127.0.0.1:PORT`.
    let url: String

    init() async throws {
        let received = NIOLockedValueBox<[(path: String, body: Data)]>([])
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(ExportHandler(received: received))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        self.received = received
        url = "http://127.0.0.1:\(channel.localAddress?.port ?? 0)"
    }

    /// Every export body received at `path`, decoded as JSON objects.
    func exports(at path: String) throws -> [[String: Any]] {
        try received.withLockedValue { $0 }.filter { $0.path == path }.map {
            try JSONSerialization.jsonObject(with: $0.body) as? [String: Any] ?? [:]
        }
    }

    func close() async throws { try await channel.close() }
}

/// Collects one request's body, keeps it, and answers `200` with `{}` (an export's full success).
private final class ExportHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let received: NIOLockedValueBox<[(path: String, body: Data)]>
    private var path = ""
    private var body = Data()

    init(received: NIOLockedValueBox<[(path: String, body: Data)]>) { self.received = received }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            path = head.uri
            body = Data()
        case .body(var buffer):
            body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .end:
            let export = (path: path, body: body)
            received.withLockedValue { $0.append(export) }
            var headers = HTTPHeaders([("Content-Type", "application/json"), ("Content-Length", "2")])
            headers.add(name: "Connection", value: "keep-alive")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "{}")))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
#endif
