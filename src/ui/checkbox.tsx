import * as RadixCheckbox from "@radix-ui/react-checkbox";

interface CheckboxProps {
  checked: boolean | "indeterminate";
  onCheckedChange: (checked: boolean) => void;
  label: string;
  disabled?: boolean;
}

/** A Radix checkbox whose label is read by assistive technology (tables use it without visible text). */
export function Checkbox({ checked, onCheckedChange, label, disabled }: CheckboxProps) {
  return (
    <RadixCheckbox.Root
      checked={checked}
      onCheckedChange={(value) => onCheckedChange(value === true)}
      aria-label={label}
      disabled={disabled}
      className="flex h-5 w-5 items-center justify-center rounded border border-line bg-white data-[state=checked]:border-brand-600 data-[state=checked]:bg-brand-600 data-[state=indeterminate]:border-brand-600 data-[state=indeterminate]:bg-brand-600"
    >
      <RadixCheckbox.Indicator className="text-white">
        <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5 fill-none stroke-current stroke-[2.5]">
          {checked === "indeterminate" ? <path d="M4 8h8" /> : <path d="M3.5 8.5 6.5 11.5 12.5 4.5" />}
        </svg>
      </RadixCheckbox.Indicator>
    </RadixCheckbox.Root>
  );
}
