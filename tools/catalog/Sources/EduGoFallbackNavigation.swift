public import DynamicUIModels

extension EduGoCatalog {
    /// EduGo's tabs while its navigation cannot be loaded: each role's dashboard, the materials
    /// for the roles whose navigation has them, and the settings.
    public static let fallbackNavigation = FallbackNavigation(
        homes: [
            "super_admin": "dashboard-superadmin", "platform_admin": "dashboard-superadmin",
            "school_admin": "dashboard-schooladmin", "school_director": "dashboard-schooladmin",
            "teacher": "dashboard-teacher", "guardian": "dashboard-guardian",
        ],
        home: "dashboard-student",
        tabs: [
            FallbackNavigation.Tab(
                key: "materials", label: .sdk(.materials), icon: "book", screenKey: "materials-list",
                roles: ["super_admin", "platform_admin", "school_admin", "school_director", "teacher", "student"]),
            FallbackNavigation.Tab(key: "settings", label: .sdk(.settings), icon: "gear", screenKey: "app-settings"),
        ])
}
