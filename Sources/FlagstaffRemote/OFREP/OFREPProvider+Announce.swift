import Flagstaff
import Foundation

/// A linked app's manifest, sent to a Flagstaff server so that QA's console shows the app's own flags and
/// settings without an export (``OFREPLink``): `POST /flagstaff/v1/manifest` with the registry's announced manifest
/// (``AnyFeatureRegistry/announcedManifest(at:)``), after the first answer of each run and after every answer that
/// follows a failed fetch or a stream's end (the server may have restarted and forgotten it).
extension OFREPProvider {
    /// What the announcement did: nothing is decided from it, it is kept for the console and tests.
    package enum AnnouncementState: Sendable, Equatable {
        /// Nothing to announce (no link), or not yet sent.
        case none
        /// The server took it.
        case announced
        /// The server does not take manifests (another OFREP server: `404`/`405`); never asked again by this provider.
        case unsupported
        /// The last attempt failed; it is made again after the next answer that follows a failure.
        case failed(String)
    }

    /// The path a Flagstaff server takes announced manifests on, after ``OFREPOptions/baseURL``.
    static let announcementPath = "flagstaff/v1/manifest"

    /// What the last announcement did.
    package var announcementState: AnnouncementState { state.withLock { $0.announcement } }

    /// Sets what to announce (the link's registry's manifest, made when it is sent) and marks it due.
    func announce(_ body: @escaping @Sendable () -> Data?) {
        state.withLock { state in
            state.announcementBody = body
            state.announcementDue = true
        }
    }

    /// Marks the announcement due again: after a failed fetch or a stream's end the server may be a new one.
    func announcementMayBeForgotten() {
        state.withLock { $0.announcementMayBeForgotten() }
    }

    /// Sends the announcement if it is due (called by the loop after an answer).
    func announceIfDue() async {
        let body = state.withLock { state -> (@Sendable () -> Data?)? in
            guard state.announcementDue, state.announcement != .unsupported else { return nil }
            state.announcementDue = false
            return state.announcementBody
        }
        guard let body, let data = body() else { return }
        var headers = options.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        headers.append((name: "Content-Type", value: "application/json"))
        let url = options.baseURL.appendingPathComponent(Self.announcementPath)
        let outcome: AnnouncementState
        switch await transport.send(
            RemoteHTTPRequest(method: "POST", url: url, headers: headers, body: data), timeout: options.requestTimeout)
        {
        case .success(let response) where (200..<300).contains(response.status):
            outcome = .announced
        case .success(let response) where response.status == 404 || response.status == 405:
            outcome = .unsupported
        case .success(let response):
            outcome = .failed("status \(response.status)\(Self.details(response.body))")
        case .failure(let error):
            outcome = .failed("\(error)")
        }
        state.withLock { state in
            state.announcement = outcome
            if case .failed = outcome { state.announcementDue = true }
        }
    }
}

extension OFREPProvider.State {
    /// Marks a link's announcement due, unless the server does not take them (a new run, a failure, a stream's end).
    mutating func announcementMayBeForgotten() {
        if announcementBody != nil, announcement != .unsupported { announcementDue = true }
    }
}
