/**
 * The one set of class names behind every button, card and input, shared by static Astro parts
 * and React islands so that both look like one product.
 */
export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger" | "light";
export type ButtonSize = "md" | "lg";

const buttonBase =
  "inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50";

const buttonVariants: Record<ButtonVariant, string> = {
  primary: "bg-brand-600 text-white shadow-sm hover:bg-brand-700 focus-visible:outline-brand-600",
  secondary: "border border-line bg-white text-ink hover:bg-surface focus-visible:outline-brand-600",
  ghost: "text-ink-soft hover:bg-surface hover:text-ink focus-visible:outline-brand-600",
  danger: "bg-danger-600 text-white hover:bg-red-700 focus-visible:outline-danger-600",
  light: "bg-white text-navy-900 shadow-sm hover:bg-brand-50 focus-visible:outline-white",
};

const buttonSizes: Record<ButtonSize, string> = {
  md: "px-4 py-2.5 text-sm",
  lg: "px-6 py-3.5 text-base",
};

export function buttonClass(variant: ButtonVariant = "primary", size: ButtonSize = "md", extra = ""): string {
  return `${buttonBase} ${buttonVariants[variant]} ${buttonSizes[size]} ${extra}`.trim();
}

export const cardClass = "rounded-2xl border border-line bg-white p-6 shadow-sm";

export const inputClass =
  "block w-full rounded-lg border border-line bg-white px-3 py-2.5 text-ink shadow-sm placeholder:text-muted focus:border-brand-600 focus:outline-2 focus:outline-offset-1 focus:outline-brand-600 aria-[invalid=true]:border-danger-600";

export const labelClass = "mb-1.5 block text-sm font-medium text-ink";

export const fieldErrorClass = "mt-1.5 text-sm text-danger-600";

/** Section heading eyebrow + title, used across marketing pages. */
export const eyebrowClass = "text-sm font-semibold uppercase tracking-wider text-brand-700";

export type NoticeVariant = "default" | "success" | "destructive";

/** Toasts and the notices of server-rendered forms. */
export const noticeVariantClass: Record<NoticeVariant, string> = {
  default: "border-line bg-white text-ink",
  success: "border-brand-100 bg-brand-50 text-ink",
  destructive: "border-red-200 bg-red-50 text-red-900",
};
