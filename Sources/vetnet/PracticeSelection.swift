import ArgumentParser
import SharedKernel
import StoragePorts
import StorageSQLite

/// The practice named by `--practice`, or the store's only practice when it is omitted; a
/// store with several practices must be told which one, so a tool never guesses.
func selectPractice(_ text: String?, store: any PracticeStore) async throws -> PracticeProfile {
    if let text { return try await resolvePractice(text, store: store) }
    let practices = try await store.allPractices()
    switch practices.count {
    case 1: return practices[0]
    case 0: throw ValidationError("the store holds no practice yet")
    default:
        let known = practices.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
        throw ValidationError("the store holds \(practices.count) practices; choose one with --practice: \(known)")
    }
}

/// The practice named by `practice` (see ``selectPractice(_:store:)``) and its account of
/// `email`, with the system scope a command acts in (`requestID` names the command in the
/// audit trail); a missing account is a usage error naming it.
func selectAccount(email: String, practice: String?, store: any PracticeStore, requestID: String) async throws
    -> (profile: PracticeProfile, account: StaffAccount, scope: AccessScope)
{
    let profile = try await selectPractice(practice, store: store)
    let scope = AccessScope.system(profile.id, requestID: requestID)
    guard let account = try await store.user(scope: scope, email: email) else {
        throw ValidationError("no account \(email) in \(profile.name)")
    }
    return (profile, account, scope)
}
