public import Foundation

/// The languages the SDK's own words come in.
public enum SDKLanguage: String, Sendable, Hashable, CaseIterable {
    /// Español.
    case spanish = "es"
    /// English.
    case english = "en"
}

/// The writing direction of a language.
public enum TextDirection: String, Sendable, Hashable {
    /// Latin, Cyrillic, …: the layout starts on the left.
    case leftToRight = "ltr"
    /// Arabic, Hebrew, Persian, Urdu, …: the layout is mirrored.
    case rightToLeft = "rtl"
}

/// The SDK's own user-visible words (errors, buttons, empty and failure states, banners, menu
/// titles) in Spanish and English, chosen by the configured locale: `es` is Spanish, any other
/// language English. A Swift table rather than an `.xcstrings` catalog, so every platform
/// (Linux included) reads the same words without bundle resources; words from the server are
/// never looked up here.
public struct DynamicUIStrings: Sendable, Hashable {
    /// The language of the words.
    public let language: SDKLanguage
    /// The writing direction of the locale (right-to-left for Arabic, Hebrew, Persian, Urdu, …).
    public let direction: TextDirection

    /// The words for `locale`.
    public init(locale: Locale) { self.init(identifier: locale.identifier) }

    /// The words for a locale or language identifier (`es_ES`, `en`, `ar-EG`).
    public init(identifier: String) {
        let code = Self.languageCode(of: identifier)
        language = code == "es" ? .spanish : .english
        direction = Self.rightToLeftLanguages.contains(code) ? .rightToLeft : .leftToRight
    }

    /// The words of `language`, written in `direction`.
    public init(language: SDKLanguage, direction: TextDirection = .leftToRight) {
        self.language = language
        self.direction = direction
    }

    /// The words of the device's language (`Locale.current`, read once): the default wherever
    /// the SDK is not given a locale.
    public static let current = DynamicUIStrings(locale: .current)
    /// Spanish, left to right.
    public static let spanish = DynamicUIStrings(language: .spanish)
    /// English, left to right.
    public static let english = DynamicUIStrings(language: .english)

    /// Languages written right to left.
    static let rightToLeftLanguages: Set<String> = ["ar", "he", "iw", "fa", "ur", "ps", "yi", "dv", "ckb", "sd", "ug"]

    /// `es` from `es_ES`, `es-419` or `ES`.
    static func languageCode(of identifier: String) -> String {
        String(identifier.prefix { $0 != "_" && $0 != "-" && $0 != "@" }).lowercased()
    }

    /// The text of `key`, with `{0}`, `{1}`, … replaced by `arguments`.
    public func callAsFunction(_ key: Key, _ arguments: String...) -> String {
        var text = Self.text(key, in: language)
        for (index, argument) in arguments.enumerated() {
            text = text.replacingOccurrences(of: "{\(index)}", with: argument)
        }
        return text
    }

    /// The template of `key` in `language`, placeholders unreplaced.
    public static func text(_ key: Key, in language: SDKLanguage) -> String {
        let entry = table[key] ?? ("", "")
        return language == .spanish ? entry.es : entry.en
    }

    /// Every word of the SDK, by what it is for.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// Navigation and chrome.
        case back, cancel, close, accept, confirmContinue, navigation, screen, home, materials, settings
        /// Toolbar, lists and paging.
        case new, refresh, search, loadMore, loadingMore, loadMoreFailed, loading, moreActions, moreActionsFor, apply, retry
        /// A search without results.
        case noResults, noResultsFor, clearSearch
        /// Elements, players and row actions.
        case noSections, unsupportedElement, unavailable, play, couldNotLoadApp, ratingOutOfFive, open, openLink, delete
        /// More row actions.
        case run, send, confirm, signOut
        /// The offline queue.
        case pendingChange, pendingChanges
        /// Failure states.
        case offlineTitle, offlineMessage, notAllowedTitle, notAllowedMessage, notFoundTitle, notFoundMessage, actionNotAllowed
        /// More failure states.
        case failedTitle, screenLoadFailed, screenShowFailed, dataLoadFailed, offline, offlineWithChanges
        /// Banners.
        case staleScreen, staleData, changeQueued, settingQueued, saved, unknownAction, actionUnavailable
        /// Action results.
        case actionUnavailableInVersion, actionTypeUnavailable, actionFailed, noServer, missingParameter
        /// Request failures.
        case checkFields, conflict, forbiddenAction, itemGone, serverUnreachable, operationFailed, confirmWithoutAction
        /// A save refused because someone else changed the record.
        case conflictTitle, reloadData, keepEditing
        /// Leaving a form with edits not saved.
        case discardChangesTitle, discardChangesMessage, discardChanges
        /// The offline queue is full.
        case queueFull, changesDiscarded, changesWillBeDiscarded
        /// A change made offline that the server refused when it was sent.
        case queuedChangeConflict, queuedChangeRefused
        /// Links and navigation failures.
        case invalidLink, linkNotAllowed, cannotOpenScreen, dataUnavailable, missingScreenKey
        /// Form validation.
        case fieldRequired, fieldEmail, fieldNumber, fieldInvalid, fieldPasswordLength, fieldChooseOption, fieldLink, fieldRange,
            fieldAtMost
        /// Assessments.
        case answerQuestion, missingAnswers
        /// Sign-in.
        case signInBadResponse, signInSaveFailed, signInWrongCredentials, signInOffline, signInFailed
        /// Settings.
        case unknownPreference, settingSaveFailed
        /// Created and updated records.
        case materialCreated, materialUpdated, userCreated, userUpdated, schoolCreated, schoolUpdated
        /// More created and updated records.
        case unitCreated, unitUpdated, memberAdded, assessmentSubmitted
        /// Following a development preview (debug builds).
        case previewConnecting, previewFollowing, previewBroken, previewUnreachable, previewRefused
    }

    // swift-format-ignore
    static let table: [Key: (es: String, en: String)] = [
        .previewConnecting: ("Conectando con la vista previa en {0}…", "Connecting to the preview at {0}…"),
        .previewFollowing: ("Siguiendo la vista previa en {0}", "Following the preview at {0}"),
        .previewBroken: (
            "Errores en el catálogo de la vista previa: {0}; se mantiene la última versión correcta",
            "Errors in the preview's catalog: {0}; the last good version stays"
        ),
        .previewUnreachable: ("No se puede conectar con la vista previa en {0} ({1})", "The preview at {0} is unreachable ({1})"),
        .previewRefused: ("No se sigue ninguna vista previa: {0}", "Not following a preview: {0}"),
        .back: ("Atrás", "Back"),
        .cancel: ("Cancelar", "Cancel"),
        .close: ("Cerrar", "Close"),
        .accept: ("Aceptar", "OK"),
        .confirmContinue: ("¿Continuar?", "Continue?"),
        .navigation: ("Navegación", "Navigation"),
        .screen: ("Pantalla", "Screen"),
        .home: ("Inicio", "Home"),
        .materials: ("Materiales", "Materials"),
        .settings: ("Ajustes", "Settings"),
        .new: ("Nuevo", "New"),
        .refresh: ("Actualizar", "Refresh"),
        .search: ("Buscar", "Search"),
        .loadMore: ("Cargar más", "Load more"),
        .loadingMore: ("Cargando más…", "Loading more…"),
        .loadMoreFailed: ("No se pudieron cargar más elementos.", "More items could not be loaded."),
        .noResults: ("Sin resultados", "No results"),
        .noResultsFor: ("Nada coincide con «{0}».", "Nothing matches “{0}”."),
        .clearSearch: ("Borrar búsqueda", "Clear search"),
        .loading: ("Cargando…", "Loading…"),
        .moreActions: ("Más acciones", "More actions"),
        .moreActionsFor: ("Más acciones: {0}", "More actions: {0}"),
        .apply: ("Aplicar", "Apply"),
        .retry: ("Reintentar", "Try again"),
        .noSections: ("Sin secciones", "No sections"),
        .unavailable: ("No disponible", "Not available"),
        .play: ("Reproducir", "Play"),
        .couldNotLoadApp: ("No se pudo cargar la app", "Could not load the app"),
        .unsupportedElement: ("Elemento no compatible: {0}", "Unsupported element: {0}"),
        .ratingOutOfFive: ("{0} de 5", "{0} out of 5"),
        .open: ("Abrir", "Open"),
        .openLink: ("Abrir enlace", "Open link"),
        .delete: ("Eliminar", "Delete"),
        .run: ("Ejecutar", "Run"),
        .send: ("Enviar", "Send"),
        .confirm: ("Confirmar", "Confirm"),
        .signOut: ("Cerrar sesión", "Sign out"),
        .pendingChange: ("1 cambio pendiente", "1 pending change"),
        .pendingChanges: ("{0} cambios pendientes", "{0} pending changes"),
        .offlineTitle: ("Sin conexión", "You’re offline"),
        .offlineMessage: (
            "Esta pantalla aún no está guardada en el dispositivo. Inténtalo de nuevo cuando tengas conexión.",
            "This screen isn’t saved on this device yet. Try again when you’re online."
        ),
        .notAllowedTitle: ("No tienes acceso", "Not allowed"),
        .notAllowedMessage: ("Tu cuenta no tiene permiso para ver esta pantalla.", "Your account may not see this screen."),
        .actionNotAllowed: ("Tu cuenta no tiene permiso para hacer esto.", "Your account may not do this."),
        .notFoundTitle: ("No encontrado", "Not found"),
        .notFoundMessage: ("Esta pantalla o el elemento que buscas no existe.", "This screen or item doesn’t exist."),
        .failedTitle: ("No se pudo cargar", "Couldn’t load"),
        .screenLoadFailed: ("No se pudo cargar la pantalla", "The screen couldn’t be loaded"),
        .screenShowFailed: ("No se pudo mostrar la pantalla", "The screen couldn’t be shown"),
        .dataLoadFailed: ("No se pudieron cargar los datos", "The data couldn’t be loaded"),
        .offline: ("Sin conexión", "Offline"),
        .offlineWithChanges: ("Sin conexión · {0}", "Offline · {0}"),
        .staleScreen: ("Sin conexión: mostrando la última versión guardada", "Offline: showing the last saved version"),
        .staleData: ("Sin conexión: mostrando los últimos datos guardados", "Offline: showing the last saved data"),
        .changeQueued: (
            "Sin conexión: el cambio se enviará al recuperar la conexión",
            "Offline: the change will be sent when you’re back online"
        ),
        .settingQueued: (
            "Sin conexión: el ajuste se enviará al recuperar la conexión",
            "Offline: the setting will be sent when you’re back online"
        ),
        .saved: ("Guardado", "Saved"),
        .unknownAction: ("Acción desconocida", "Unknown action"),
        .actionUnavailable: ("Acción no disponible", "Action not available"),
        .actionUnavailableInVersion: ("Acción no disponible en esta versión", "Action not available in this version"),
        .actionTypeUnavailable: ("Acción '{0}' no disponible en esta versión", "Action '{0}' not available in this version"),
        .actionFailed: ("No se pudo completar la acción", "The action couldn’t be completed"),
        .noServer: ("No hay conexión con el servidor configurada", "No server connection is configured"),
        .missingParameter: ("Falta el parámetro '{0}' para {1}", "The parameter '{0}' is missing for {1}"),
        .checkFields: ("Revisa los campos marcados", "Check the highlighted fields"),
        .conflict: (
            "Otro usuario modificó estos datos. Vuelve a cargarlos e inténtalo de nuevo.",
            "Someone else changed this data. Reload it and try again."
        ),
        .conflictTitle: ("Datos modificados por otra persona", "Changed by someone else"),
        .reloadData: ("Volver a cargar", "Reload"),
        .keepEditing: ("Seguir editando", "Keep editing"),
        .discardChangesTitle: ("¿Descartar los cambios?", "Discard changes?"),
        .discardChangesMessage: ("Los cambios que hiciste no se guardarán.", "The changes you made will not be saved."),
        .discardChanges: ("Descartar cambios", "Discard Changes"),
        .forbiddenAction: ("Tu cuenta no tiene permiso para hacer esto", "Your account may not do this"),
        .itemGone: ("El elemento ya no existe", "The item no longer exists"),
        .serverUnreachable: ("Sin conexión con el servidor", "Can’t reach the server"),
        .queueFull: (
            "Hay demasiados cambios sin enviar: conéctate para enviarlos antes de hacer más. Este no se guardó.",
            "Too many changes are waiting to be sent: connect to send them before making more. This one was not saved."
        ),
        .changesWillBeDiscarded: (
            "{0} cambios aún no se han enviado: si cierras la sesión ahora, se descartarán.",
            "{0} changes have not been sent yet: if you sign out now, they will be discarded."
        ),
        .queuedChangeConflict: (
            "Un cambio hecho sin conexión no se aplicó: otra persona modificó esos datos antes. Vuelve a abrirlos e inténtalo de nuevo.",
            "A change made offline was not applied: someone else changed that data first. Open it again and retry."
        ),
        .queuedChangeRefused: (
            "Un cambio hecho sin conexión no se aplicó: {0}",
            "A change made offline was not applied: {0}"
        ),
        .changesDiscarded: (
            "{0} cambios sin enviar de la sesión cerrada se descartaron: no se enviarán con otra cuenta.",
            "{0} unsent changes of the session that ended were discarded: they are never sent as another account."
        ),
        .operationFailed: ("No se pudo completar la operación", "The operation couldn’t be completed"),
        .confirmWithoutAction: ("Confirmación sin acción", "Confirmation without an action"),
        .invalidLink: ("Enlace no válido", "Invalid link"),
        .linkNotAllowed: ("Este enlace no está permitido", "This link isn’t allowed"),
        .cannotOpenScreen: ("No se puede abrir esta pantalla: falta '{0}'", "This screen can’t be opened: '{0}' is missing"),
        .dataUnavailable: ("No se pudieron cargar los datos", "The data couldn’t be loaded"),
        .missingScreenKey: ("Falta la pantalla de destino (screen_key)", "The destination screen (screen_key) is missing"),
        .fieldRequired: ("{0}: campo obligatorio", "{0}: required"),
        .fieldRange: ("{0}: un número de {1} a {2}", "{0}: a number from {1} to {2}"),
        .fieldAtMost: ("{0}: como máximo {1}", "{0}: at most {1}"),
        .fieldEmail: ("{0}: introduce un correo electrónico válido", "{0}: enter a valid email address"),
        .fieldNumber: ("{0}: introduce un número", "{0}: enter a number"),
        .fieldInvalid: ("no válido", "not valid"),
        .fieldPasswordLength: ("{0}: al menos {1} caracteres", "{0}: at least {1} characters"),
        .fieldChooseOption: ("{0}: elige una de las opciones", "{0}: choose one of the options"),
        .fieldLink: ("{0}: introduce un enlace que empiece por https://", "{0}: enter a link starting with https://"),
        .answerQuestion: ("Responde esta pregunta", "Answer this question"),
        .missingAnswers: ("Faltan respuestas", "Some answers are missing"),
        .signInBadResponse: ("Respuesta de inicio de sesión no válida", "Invalid sign-in response"),
        .signInSaveFailed: ("No se pudo guardar la sesión", "The session couldn’t be saved"),
        .signInWrongCredentials: ("Correo o contraseña incorrectos", "Wrong email or password"),
        .signInOffline: ("Sin conexión. Inténtalo de nuevo cuando tengas red.", "Offline. Try again when you’re connected."),
        .signInFailed: ("No se pudo iniciar sesión", "Couldn’t sign in"),
        .unknownPreference: ("Preferencia desconocida", "Unknown preference"),
        .settingSaveFailed: ("No se pudo guardar el ajuste", "The setting couldn’t be saved"),
        .materialCreated: ("Material creado", "Material created"),
        .materialUpdated: ("Material actualizado", "Material updated"),
        .userCreated: ("Usuario creado", "User created"),
        .userUpdated: ("Usuario actualizado", "User updated"),
        .schoolCreated: ("Escuela creada", "School created"),
        .schoolUpdated: ("Escuela actualizada", "School updated"),
        .unitCreated: ("Unidad creada", "Unit created"),
        .unitUpdated: ("Unidad actualizada", "Unit updated"),
        .memberAdded: ("Miembro agregado", "Member added"),
        .assessmentSubmitted: ("Evaluación enviada", "Assessment submitted"),
    ]
}
