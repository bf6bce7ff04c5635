import Foundation
import SharedKernel
import Testing

@testable import Triage

/// The findings the intake form offers come from the domain; each must be one the engine
/// takes as asserted and gives its catalogue level.
@Suite("Desk findings: what the form offers, the engine accepts")
struct DeskFindingsTests {
    static let all = DeskFindings.sections.flatMap(\.findings)

    @Test(
        "each finding asserted alone fires its own discriminator at its catalogue level",
        arguments: DeskFindingsTests.all.map(\.id))
    func assertedAlone(id: DiscriminatorID) throws {
        let result = try triage(json: #"{"species": "dog", "onsetHoursAgo": 2, "findings": ["\#(id.rawValue)"]}"#)
        let fired = try #require(result.fired.first { $0.discriminator.id == id }, "\(id.rawValue) did not fire")
        #expect(fired.discriminator.level == DiscriminatorCatalogue.entry(id).level)
        #expect(result.level <= DiscriminatorCatalogue.entry(id).level)
    }

    @Test("every discriminator staff assert (not derived from measurements) is offered exactly once")
    func everyAssertedOffered() {
        let offered = Self.all.map(\.id)
        #expect(Set(offered).count == offered.count)
        let asserted = DiscriminatorCatalogue.all.filter { $0.derivation == .asserted }.map(\.id)
        #expect(Set(asserted).isSubset(of: Set(offered)), "\(Set(asserted).subtracting(offered).map(\.rawValue))")
        #expect(Self.all.allSatisfy { !$0.label.isEmpty })
    }
}
