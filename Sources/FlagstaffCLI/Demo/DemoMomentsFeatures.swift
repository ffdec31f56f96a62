import Flagstaff
import FlagstaffRemote

/// The demo's `moments` group: what a moment (a post) shows.
struct DemoMomentsFeatures: FeatureGroup {
    let groupOptions = GroupOptions(label: "Moments", description: "Posts in the feed")
    let isLikeButtonForMomentEnabled = Feature(
        label: "Like Button",
        description: "Show the like button under each moment; the action bar is laid out at launch",
        requiresRestart: true)
    let isRoundedAvatar: RemoteFeature
    let showCommentCount = Feature(
        description: "Show the number of comments next to the comment button", default: true)
    let autoplayVideos = Feature(description: "Play videos muted when they scroll into view")
    let translateCaptions = Feature(description: "Offer a Translate button on captions written in another language")

    /// Creates the group.
    /// - Parameter remoteConfig: the remote config `isRoundedAvatar` reads (remote key `isRoundedAvatar`).
    init(remoteConfig: RemoteConfig) {
        isRoundedAvatar = RemoteFeature(
            remoteKey: "isRoundedAvatar", default: false, label: "Rounded Avatar",
            description: "Draw authors' avatars as circles instead of rounded squares (remote config isRoundedAvatar)",
            config: remoteConfig)
    }
}
