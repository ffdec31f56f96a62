import Flagstaff

/// The demo's `checkout` group: paying for an order.
struct DemoCheckoutFeatures: FeatureGroup {
    let groupOptions = GroupOptions(label: "Checkout", description: "Paying for an order")
    let expressPay = Feature(description: "Offer one-tap payment with the platform wallet")
    let savedCards = Feature(description: "Let customers pick a card saved on their account", default: true)
    let newAddressForm = Feature(
        label: "New Address Form", description: "The redesigned address form with postcode lookup")
    let oneTapReorder = Feature(
        description: "Add a Reorder button to past orders; the order history cache is built at launch",
        requiresRestart: true)
    let giftWrapping = Feature(description: "Offer gift wrapping and a gift message at checkout")
}
