/// Manifests used by the CLI tests.
enum ManifestFixtures {
    /// A small app: two root flags, a group with a nested group.
    static let shop = """
        {
          "name": "Shop",
          "flags": [
            {"key": "darkMode", "label": "Dark Mode", "description": "Use the dark theme", "default": false},
            {"key": "newHome", "description": "The redesigned home screen", "default": true, "requiresRestart": true}
          ],
          "groups": [
            {"key": "cart", "label": "Cart", "flags": [
              {"key": "cart.saveForLater", "label": "Save for Later", "default": false},
              {"key": "cart.expressCheckout", "default": true, "requiresRestart": true}
            ],
             "groups": [
               {"key": "coupons", "label": "Coupons", "flags": [
                 {"key": "cart.coupons.autoApply", "description": "Apply the best coupon", "default": false}
               ]}
             ]}
          ]
        }
        """

    /// A manifest whose label and description carry terminal escape sequences.
    static let hostile = """
        {
          "name": "Evil\\u001b]0;pwned\\u0007",
          "flags": [
            {"key": "evil", "label": "Red \\u001b[31mALERT\\u001b[0m", "description": "clear \\u001b[2J screen \\u009b1m bidi \\u202e", "default": true}
          ]
        }
        """
}
