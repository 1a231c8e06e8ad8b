export function Spinner({ className = "h-6 w-6", label }: { className?: string; label?: string }) {
  return (
    <span role={label ? "status" : undefined} className="inline-flex items-center gap-2">
      <svg aria-hidden="true" viewBox="0 0 24 24" className={`animate-spin ${className}`}>
        <circle cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="3" fill="none" opacity="0.25" />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="3" fill="none" strokeLinecap="round" />
      </svg>
      {label && <span>{label}</span>}
    </span>
  );
}
