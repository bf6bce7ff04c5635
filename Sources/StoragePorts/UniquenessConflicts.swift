import SharedKernel

/// The values a practice may hold only once, and how both stores refuse a second: the same
/// field and words whichever store (or path: a create, an update, an import) meets it.
extension UniquenessConflict {
    /// Another patient of the practice has this microchip.
    public static let patientMicrochip = UniquenessConflict(
        field: "microchip", message: "is already recorded for another patient of this practice")
    /// Another room of the practice has this name.
    public static let roomName = UniquenessConflict(field: "name", message: "is already the name of another room")
    /// Another appointment type of the practice has this name.
    public static let appointmentTypeName = UniquenessConflict(
        field: "name", message: "is already the name of another appointment type")
    /// Another staff account of the practice has this email address.
    public static let accountEmail = UniquenessConflict(
        field: "email", message: "is already used by another account of this practice")
    /// Another practice on the installation has this name (the command line finds practices by name).
    public static let practiceName = UniquenessConflict(
        field: "name", message: "is already the name of a practice on this installation")
}
