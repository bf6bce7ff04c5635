import ArgumentParser

/// `vetnet migrate`: brings the store's schema up to date and checks durability settings.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Create or upgrade the store's schema.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let vetStore = try store.openStore()
        print("store at \(store.dataURL.path) is migrated (synchronous=\(try vetStore.synchronousLevel()))")
        try vetStore.close()
    }
}
