import FlagstaffServerBodies
import Foundation

/// The request bodies `flagstaff serve` reads.
extension FuzzTarget {
    /// One body through every reader: OFREP's evaluation context, Unleash register/metrics, the frontend POST.
    static let requestBodies = FuzzTarget(
        name: "request-bodies",
        summary: "serve's request bodies (OFREP context, register/metrics, frontend POST; FlagstaffServerBodies)"
    ) { data in
        let body = [UInt8](data)
        do {
            _ = try RequestBody.ofrepContext(body)
        } catch {
            FuzzCheck.described(error, as: RequestBody.Problem.self, by: "RequestBody.ofrepContext")
        }
        do {
            let call = try UnleashClientCall(reading: body)
            for (name, count) in call.counts where count.yes < 0 || count.no < 0 || count.total < 0 {
                FuzzCheck.fail("negative count for \(name): \(count)")
            }
        } catch {
            FuzzCheck.described(error, as: RequestBody.Problem.self, by: "UnleashClientCall")
        }
        do {
            let request = try FrontendContextRequest(reading: body)
            if request.appName?.isEmpty == true { FuzzCheck.fail("an empty appName was kept") }
        } catch {
            FuzzCheck.described(error, as: RequestBody.Problem.self, by: "FrontendContextRequest")
        }
    }
}
