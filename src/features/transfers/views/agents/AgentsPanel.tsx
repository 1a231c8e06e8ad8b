/**
 * One live-transfer order's agents (docs/decisions/0071): the list with each agent's switch and calls today,
 * adding, editing and removing (with a confirmation). Its own chunk, loaded when the buyer opens it.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { formatPhoneKey } from "../../../../domain/format";
import { api, call, errorMessage } from "../../../../lib/api";
import { Button } from "../../../../ui/button";
import { RetryNotice } from "../../../../ui/retry";
import { Spinner } from "../../../../ui/spinner";
import { toast } from "../../../../ui/toast";
import { AGENTS_EXPLAINED, agentScheduleText, billableRateText, MAX_AGENTS_PER_ORDER } from "../../agents";
import type { Agent } from "../../schemas/agents";

// The form (and its form library) loads when the buyer adds or edits an agent (decision 0032).
const AgentForm = lazy(() => import("./AgentForm"));

const agentsKey = (orderId: string) => ["/api/transfer-orders", orderId, "agents"] as const;

function AgentItem({
  orderId,
  agent,
  onEdit,
  onChanged,
}: {
  orderId: string;
  agent: Agent;
  onEdit: () => void;
  onChanged: (notice: string, refocus?: boolean) => Promise<void>;
}) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) keep.current?.focus();
  }, [confirming]);
  const param = { id: orderId, agentId: agent.id };
  const toggle = useMutation({
    mutationFn: (takingCalls: boolean) =>
      call(api["transfer-orders"][":id"].agents[":agentId"]["taking-calls"].$patch({ param, json: { takingCalls } })),
    onSuccess: (saved) =>
      onChanged(saved.takingCalls ? `${saved.name} takes calls again.` : `${saved.name} takes no calls for now.`),
    onError: (error) =>
      toast({
        title: errorMessage(error, "The switch could not be changed. Please try again."),
        variant: "destructive",
      }),
  });
  const remove = useMutation({
    mutationFn: () => call(api["transfer-orders"][":id"].agents[":agentId"].$delete({ param })),
    onSuccess: () => onChanged(`${agent.name} was removed.`, true),
    onError: (error) =>
      toast({
        title: errorMessage(error, "The agent could not be removed. Please try again."),
        variant: "destructive",
      }),
  });

  return (
    <li className="space-y-3 rounded-xl border border-line bg-white p-4" aria-labelledby={`${id}-name`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <p id={`${id}-name`} className="font-semibold break-words">
            {agent.name}
            {agent.onCall && (
              <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">
                On a call
              </span>
            )}
          </p>
          <p className="text-sm text-ink-soft">
            {formatPhoneKey(agent.transferPhone)} · {agent.states.join(", ")}
          </p>
          <p className="text-sm text-ink-soft">{agentScheduleText(agent)}</p>
          <p className="text-sm" data-testid="agent-calls-today">
            {billableRateText(agent.callsToday, agent.billableToday)}
          </p>
        </div>
        <label className="flex cursor-pointer items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            role="switch"
            checked={agent.takingCalls}
            aria-checked={agent.takingCalls}
            disabled={toggle.isPending}
            aria-describedby={`${id}-name`}
            onChange={(event) => toggle.mutate(event.target.checked)}
            className="h-5 w-5 cursor-pointer accent-brand-600 disabled:cursor-not-allowed"
          />
          Taking calls now
        </label>
      </div>
      {confirming ? (
        <div className="space-y-2 rounded-lg bg-surface p-3">
          <p id={`${id}-confirm`} className="text-sm">
            Remove {agent.name} from this order? Transfers stop ringing this agent; past calls keep the name.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="danger"
              busy={remove.isPending}
              aria-describedby={`${id}-confirm`}
              onClick={() => remove.mutate()}
            >
              Remove agent
            </Button>
            <Button
              ref={keep}
              variant="secondary"
              aria-describedby={`${id}-confirm`}
              onClick={() => setConfirming(false)}
            >
              Keep agent
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={onEdit} aria-describedby={`${id}-name`}>
            Edit
          </Button>
          <Button variant="ghost" onClick={() => setConfirming(true)} aria-describedby={`${id}-name`}>
            Remove
          </Button>
        </div>
      )}
    </li>
  );
}

export default function AgentsPanel({ orderId }: { orderId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<"new" | string | null>(null);
  const [notice, setNotice] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const agents = useQuery({
    queryKey: agentsKey(orderId),
    queryFn: () => call(api["transfer-orders"][":id"].agents.$get({ param: { id: orderId } })),
  });
  // After an add, an edit or a removal the form or the item is gone: focus returns to the panel's heading.
  const changed = async (text: string, refocus = false) => {
    setNotice(text);
    await queryClient.invalidateQueries({ queryKey: agentsKey(orderId) });
    if (refocus) heading.current?.focus();
  };
  const saved = async (agent: Agent) => {
    setEditing(null);
    await changed(editing === "new" ? `${agent.name} was added.` : `${agent.name} was saved.`, true);
  };

  const list = agents.data ?? [];
  const form = (agent?: Agent) => (
    <Suspense fallback={<Spinner label="Loading the form..." />}>
      <AgentForm orderId={orderId} agent={agent} onSaved={saved} onCancel={() => setEditing(null)} />
    </Suspense>
  );

  return (
    <section aria-labelledby={`${id}-title`} className="w-full space-y-3" data-testid="agents-panel">
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className="text-lg font-bold focus:outline-none">
        Agents
      </h3>
      <p className="text-sm text-ink-soft">{AGENTS_EXPLAINED}</p>
      <p aria-live="polite" className="text-sm font-medium text-brand-700">
        {notice}
      </p>
      {agents.isPending ? (
        <Spinner label="Loading the agents..." />
      ) : agents.isError ? (
        <RetryNotice
          message={errorMessage(agents.error, "The agents could not be loaded.")}
          busy={agents.isFetching}
          onRetry={() => void agents.refetch()}
        />
      ) : (
        <>
          {list.length === 0 ? (
            <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-ink-soft">
              No agents yet: transfers ring the order's transfer number.
            </p>
          ) : (
            <ul className="space-y-3" aria-label="Agents of this order">
              {list.map((agent) =>
                editing === agent.id ? (
                  <li key={agent.id}>{form(agent)}</li>
                ) : (
                  <AgentItem
                    key={agent.id}
                    orderId={orderId}
                    agent={agent}
                    onEdit={() => setEditing(agent.id)}
                    onChanged={changed}
                  />
                ),
              )}
            </ul>
          )}
          {editing === "new"
            ? form()
            : list.length < MAX_AGENTS_PER_ORDER && (
                <Button variant="secondary" onClick={() => setEditing("new")}>
                  Add an agent
                </Button>
              )}
        </>
      )}
    </section>
  );
}
