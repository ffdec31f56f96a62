/// The body of the delta API: `{"events":[{"eventId":1,"type":"hydration",…}, …]}`.
struct DeltaBody: Decodable, Sendable {
    let events: [DeltaEvent]
}
