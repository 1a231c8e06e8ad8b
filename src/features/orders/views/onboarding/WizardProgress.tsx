/** 'Step N of 3', the percentage and a progress bar (product rule 44; progress is step over 3). */
export function WizardProgress({ step, total, labels }: { step: number; total: number; labels?: readonly string[] }) {
  const percent = Math.round((step / total) * 100);
  return (
    <div>
      <div className="flex items-center justify-between text-sm font-medium text-ink-soft">
        <span>
          Step {step} of {total}
        </span>
        <span>{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={`Step ${step} of ${total}`}
        className="mt-2 h-2 overflow-hidden rounded-full bg-line"
      >
        <div className="h-full rounded-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
      </div>
      {labels && (
        <ol className="mt-4 grid gap-2 text-sm sm:grid-cols-3">
          {labels.map((label, index) => (
            <li
              key={label}
              aria-current={index + 1 === step ? "step" : undefined}
              className={`flex items-center gap-2 ${index + 1 <= step ? "font-semibold text-ink" : "text-muted"}`}
            >
              <span
                className={`flex h-6 w-6 items-center justify-center rounded-full text-xs ${index + 1 <= step ? "bg-brand-600 text-white" : "bg-line text-ink-soft"}`}
              >
                {index + 1}
              </span>
              {label}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
