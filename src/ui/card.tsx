import type { HTMLAttributes } from "react";
import { cardClass } from "./styles";

export function Card({ className = "", ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={`${cardClass} ${className}`} {...rest} />;
}
