import FlagstaffServerBodies
import Foundation
import Hummingbird

/// `POST /flagstaff/v1/manifest`: a linked app announces its registry (``AppAnnouncements``). Answers `200` with
/// what was added, `400` naming what is wrong with the manifest, `413` for a body over ``AppAnnouncements/bodyLimit``.
struct AnnounceRoutes: Sendable {
    let live: LiveSnapshot
    let clients: ClientTracker
    let announcements: AppAnnouncements

    static let path = "/flagstaff/v1/manifest"

    func add(to router: Router<FlagRequestContext>) {
        router.post(RouterPath(Self.path)) { request, _ in try await announce(request) }
    }

    private func announce(_ request: Request) async throws -> Response {
        var request = request
        let body = Array(try await request.collectBody(upTo: AppAnnouncements.bodyLimit).readableBytesView)
        let (name, sdk) = FlagRoutes.identify(request)
        clients.record(name: name, sdk: sdk, call: .register)
        do throws(AppAnnouncements.Refusal) {
            let announcement = try announcements.receive(body, from: name, into: live.registry)
            // The new members are served from the next request on.
            _ = live.current()
            var json = JSONBodyWriter()
            json.raw("{")
            json.member("registry", first: true)
            json.string(announcement.registry)
            json.member("members")
            json.raw("\(announcement.members)")
            json.member("added")
            json.raw("\(announcement.added)")
            json.member("updated")
            json.raw("\(announcement.updated)")
            json.raw("}")
            return ServerReply(status: 200, body: json.bytes).response
        } catch {
            return ServerReply.error(400, "\(error)").response
        }
    }
}
