/**
 * What a single-use e-mailed link may do (docs/decisions/0028): the values stored in
 * `single_use_links.purpose`. Only the SHA-256 of a link's token is stored.
 */
export const LINK_PURPOSES = ["password_reset", "partner_invitation", "delivery_setup"] as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[number];
