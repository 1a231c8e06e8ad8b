/** Support (product rule 45): where to write, and when the shop answers. */
import { site } from "../../config/site";
import { Card } from "../../ui/card";

export function SupportView() {
  return (
    <section className="space-y-4">
      <h2 className="text-2xl font-bold">Support</h2>
      <Card>
        <p>
          Write to{" "}
          <a className="font-semibold text-brand-700 underline" href={`mailto:${site.supportEmail}`}>
            {site.supportEmail}
          </a>{" "}
          and we will answer {site.supportWindow}.
        </p>
      </Card>
    </section>
  );
}
